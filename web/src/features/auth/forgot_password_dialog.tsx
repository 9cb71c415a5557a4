import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Dialog, Flex } from "@radix-ui/themes";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { messageOr } from "../../api/call.ts";
import { requestPasswordReset } from "./api.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { TextField } from "../../components/text_field.tsx";
import { forgotPasswordSchema } from "./login_schema.ts";

type Values = z.infer<typeof forgotPasswordSchema>;

/** The same text whether or not the account exists, so the dialog reveals no usernames. */
export const RESET_REQUESTED =
  "If an account with that username exists, a password reset link has been sent to its email address.";
const RESET_REQUEST_FAILED = "Could not request a password reset. Please try again.";

/** "Forgot Password" button and dialog: asks for a username only (part 1, section 2). */
export function ForgotPasswordDialog() {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, reset, formState } = useForm<Values>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { username: "" },
  });

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      // Each opening starts from an empty form.
      reset();
      setSent(false);
      setFailure(null);
    }
  };

  const onSubmit = async ({ username }: Values) => {
    setFailure(null);
    try {
      await requestPasswordReset(username);
      setSent(true);
    } catch (error) {
      setFailure(messageOr(error, RESET_REQUEST_FAILED));
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger>
        <Button type="button" variant="ghost">Forgot Password</Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="425px">
        <Dialog.Title>Forgot Password</Dialog.Title>
        {sent
          ? (
            <>
              <Dialog.Description size="2">{RESET_REQUESTED}</Dialog.Description>
              <Flex justify="end" mt="4">
                <Dialog.Close>
                  <Button>Close</Button>
                </Dialog.Close>
              </Flex>
            </>
          )
          : (
            <form noValidate onSubmit={handleSubmit(onSubmit)}>
              <Dialog.Description size="2" mb="4">
                Enter your username and we will email you a link to reset your password.
              </Dialog.Description>
              <Flex direction="column" gap="3">
                {failure && <ErrorAlert>{failure}</ErrorAlert>}
                <TextField
                  label="Username"
                  autoComplete="username"
                  error={formState.errors.username?.message}
                  {...register("username")}
                />
              </Flex>
              <Flex justify="end" gap="3" mt="4">
                <Dialog.Close>
                  <Button type="button" variant="soft" color="gray">Cancel</Button>
                </Dialog.Close>
                <Button type="submit" loading={formState.isSubmitting}>Send Reset Link</Button>
              </Flex>
            </form>
          )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
