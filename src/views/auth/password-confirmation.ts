import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { z } from 'zod';
import { ChangePasswordBody, PasswordSchema } from '../../contract/auth';

type Confirmed = { newPassword: string; confirmPassword: string };

const matches = (values: Confirmed) => values.newPassword === values.confirmPassword;
// A function, so the message is translated when the form is checked, in the language then active.
const mismatch = { path: ['confirmPassword'], error: () => i18n._(msg`The passwords do not match`) };

const NewPassword = z.object({ newPassword: PasswordSchema, confirmPassword: z.string() });

/** A new password typed twice: the reset form. */
export const NewPasswordForm = NewPassword.refine(matches, mismatch);

/** The profile's change-password form: the current password, and the new one typed twice. */
export const ChangePasswordForm = NewPassword.extend({ currentPassword: ChangePasswordBody.shape.currentPassword }).refine(matches, mismatch);
