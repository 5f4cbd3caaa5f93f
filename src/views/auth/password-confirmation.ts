import { z } from 'zod/mini';
import { ChangePasswordBody, PasswordSchema } from '../../contract/auth';
import { messages } from '../../contract/messages';

type Confirmed = { newPassword: string; confirmPassword: string };

const matches = (values: Confirmed) => values.newPassword === values.confirmPassword;
// A catalog id like every schema message: the form translates it when it shows it.
const mismatch = { path: ['confirmPassword'], error: messages.passwordsDiffer.id };

const NewPassword = z.object({ newPassword: PasswordSchema, confirmPassword: z.string() });

/** A new password typed twice: the reset form. */
export const NewPasswordForm = NewPassword.check(z.refine(matches, mismatch));

/** The profile's change-password form: the current password, and the new one typed twice. */
export const ChangePasswordForm = z.extend(NewPassword, { currentPassword: ChangePasswordBody.shape.currentPassword }).check(z.refine(matches, mismatch));
