import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Card, Container, Flex, Heading } from "@radix-ui/themes";
import { useAtom } from "jotai";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useLocation } from "wouter";
import { ApiError, messageOr } from "../../api/call.ts";
import { login } from "./api.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { TextField } from "../../components/text_field.tsx";
import { loginNoticeAtom } from "../../state/session.ts";
import { ForgotPasswordDialog } from "./forgot_password_dialog.tsx";
import {
  LOGIN_BAD_CREDENTIALS,
  LOGIN_FAILED,
  loginSchema,
  type LoginValues,
} from "./login_schema.ts";

/** The login page at / (unguarded). Shows the guard's message when it sent the user here. */
export default function LoginPage() {
  const [, navigate] = useLocation();
  const [notice, setNotice] = useAtom(loginNoticeAtom);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { username: "", password: "" },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = async ({ username, password }: LoginValues) => {
    setFailure(null);
    try {
      await login(username, password);
      setNotice(null);
      navigate("/home");
    } catch (error) {
      if (!(error instanceof ApiError) || error.isNetworkFailure) {
        setFailure(LOGIN_FAILED);
        return;
      }
      setNotice(null);
      setFailure(messageOr(error, LOGIN_BAD_CREDENTIALS));
    }
  };

  const alert = failure ?? notice;
  return (
    <Container size="1" px="4" py="9">
      <Card size="3">
        <form noValidate onSubmit={handleSubmit(onSubmit)}>
          <Flex direction="column" gap="4">
            <Heading as="h1" size="6">Login</Heading>
            {alert && <ErrorAlert>{alert}</ErrorAlert>}
            <TextField
              label="Username"
              autoComplete="username"
              error={errors.username?.message}
              {...register("username")}
            />
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              error={errors.password?.message}
              {...register("password")}
            />
            <Button type="submit" size="3" loading={isSubmitting}>Login</Button>
          </Flex>
        </form>
        {/* Outside the login form: React bubbles the dialog's submit through the portal. */}
        <Flex justify="center" mt="4">
          <ForgotPasswordDialog />
        </Flex>
      </Card>
    </Container>
  );
}
