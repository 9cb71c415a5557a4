import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Card, Container, Flex, Heading, Link as TextLink, Text } from "@radix-ui/themes";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "wouter";
import { z } from "zod";
import { newPassword } from "../../../../shared/contract/auth.ts";
import { messageOr } from "../../api/call.ts";
import { completePasswordReset } from "./api.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { TextField } from "../../components/text_field.tsx";
import { SuccessAlert } from "../../components/outcome_alert.tsx";

const schema = z
  .object({
    // The server's own rule, so the form says what the server would refuse.
    newPassword,
    confirmPassword: z.string().min(1, "Confirm Password is required"),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    message: "Passwords do not match",
    path: ["confirmPassword"],
  });

type Values = z.infer<typeof schema>;

const RESET_FAILED = "Password reset failed. Please try again.";

function BackToLogin() {
  return (
    <TextLink asChild>
      <Link href="/">Back to Login</Link>
    </TextLink>
  );
}

/** /reset-password?token=…: sets a new password with the token from the reset e-mail. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { newPassword: "", confirmPassword: "" },
  });

  const onSubmit = async ({ newPassword }: Values) => {
    setFailure(null);
    try {
      await completePasswordReset(token, newPassword);
      setDone(true);
    } catch (error) {
      setFailure(messageOr(error, RESET_FAILED));
    }
  };

  return (
    <Container size="1" px="4" py="9">
      <Card size="3">
        <Flex direction="column" gap="4">
          <Heading as="h1" size="6">Reset Password</Heading>
          {!token && (
            <>
              <ErrorAlert>This password reset link is invalid or incomplete.</ErrorAlert>
              <BackToLogin />
            </>
          )}
          {token && done && (
            <>
              <SuccessAlert>Your password has been reset. You can now log in.</SuccessAlert>
              <BackToLogin />
            </>
          )}
          {token && !done && (
            <form noValidate onSubmit={handleSubmit(onSubmit)}>
              <Flex direction="column" gap="4">
                {failure && <ErrorAlert>{failure}</ErrorAlert>}
                <TextField
                  label="New Password"
                  type="password"
                  autoComplete="new-password"
                  error={formState.errors.newPassword?.message}
                  {...register("newPassword")}
                />
                <TextField
                  label="Confirm Password"
                  type="password"
                  autoComplete="new-password"
                  error={formState.errors.confirmPassword?.message}
                  {...register("confirmPassword")}
                />
                <Button type="submit" size="3" loading={formState.isSubmitting}>
                  Reset Password
                </Button>
                <Text size="2">
                  <BackToLogin />
                </Text>
              </Flex>
            </form>
          )}
        </Flex>
      </Card>
    </Container>
  );
}
