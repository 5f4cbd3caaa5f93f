import { z } from 'zod/mini';
import { defineAction } from './action';
import { INTERFACE_LANGUAGES } from './languages';
import { messages } from './messages';
import { RoleInfoSchema, UserTypeSchema } from './permissions';

// Schema messages are catalog ids: the server answers them in the caller's language and the
// client's forms translate them with the same catalog.
const required = messages.required.id;

const tooLong = messages.tooLong.id;

export const PinSchema = z.string().check(z.trim(), z.regex(/^\d{6}$/, messages.pinFormat.id));
export const PasswordSchema = z.string().check(z.minLength(8, messages.passwordTooShort.id), z.maxLength(256, messages.passwordTooLong.id));
const Identifier = z.string().check(z.trim(), z.minLength(1, required), z.maxLength(254, tooLong));
/** The browser's own rule for an email input (HTML's), so `admin@localhost`, the first admin's default, is one too. */
export const Email = z.pipe(
  z.string().check(z.trim(), z.minLength(1, required), z.maxLength(254, tooLong)),
  z.email({ pattern: z.regexes.html5Email, error: messages.emailFormat.id }),
);
// Checking an existing password must not reject what an older, looser rule once allowed.
const CurrentPassword = z.string().check(z.minLength(1, required), z.maxLength(1024, tooLong));

/** Spec §3 payloads. */
export const LoginBody = z.object({ emailOrUsername: Identifier, password: CurrentPassword });
export const VerifyPinBody = z.object({ emailOrUsername: Identifier, pin: PinSchema });
export const ForgotPasswordBody = z.object({ email: Email });
export const VerifyResetPinBody = z.object({ email: Email, pin: PinSchema });
export const ResetPasswordBody = z.object({ tempToken: z.string().check(z.minLength(1, required), z.maxLength(200, tooLong)), pin: PinSchema, newPassword: PasswordSchema });
export const ChangePasswordBody = z.object({ currentPassword: CurrentPassword, newPassword: PasswordSchema });
export type LoginBody = z.infer<typeof LoginBody>;
export type VerifyPinBody = z.infer<typeof VerifyPinBody>;
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;
export type VerifyResetPinBody = z.infer<typeof VerifyResetPinBody>;
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const LanguageCodeSchema = z.enum(INTERFACE_LANGUAGES);

/** The signed-in user as the server sends it (spec §3 "stored auth user"); never a secret in it. */
export const AuthUserSchema = z.object({
  _id: z.uuid(),
  email: z.string(),
  username: z.string(),
  type: UserTypeSchema,
  /** 'admin' for admins, the team role's name for team members, otherwise null. */
  role: z.nullable(z.string()),
  verified: z.boolean(),
  status: z.enum(['active', 'suspended']),
  firstName: z.string(),
  lastName: z.string(),
  language: LanguageCodeSchema,
  /** The one website of a team member. */
  websiteId: z.nullable(z.uuid()),
  /** A team member's role: flags and CMS module levels. */
  roleInfo: z.nullable(RoleInfoSchema),
});
export type AuthUser = z.infer<typeof AuthUserSchema>;

export const LoginResult = z.object({ emailOrUsername: z.string(), pinExpiresInSeconds: z.int() });
export const VerifyPinResult = z.object({ token: z.string(), user: AuthUserSchema, type: UserTypeSchema });
export const VerifyResetPinResult = z.object({ tempToken: z.string() });
export const ForgotPasswordResult = z.object({ email: z.string() });
export const ResetPasswordResult = z.object({ passwordReset: z.literal(true) });

export const PersonName = z.string().check(z.trim(), z.maxLength(100, tooLong));
const usernameFormat = messages.usernameFormat.id;
export const Username = z.string().check(z.trim(), z.minLength(3, usernameFormat), z.maxLength(50, usernameFormat), z.regex(/^[\w.-]+$/, usernameFormat));

export const ProfileUpdateBody = z.object({
  firstName: z.optional(PersonName),
  lastName: z.optional(PersonName),
  username: z.optional(Username),
  language: z.optional(LanguageCodeSchema),
});
export type ProfileUpdateBody = z.infer<typeof ProfileUpdateBody>;

/** One signed-in session of the user, as listed under "Devices". */
export const DeviceSchema = z.object({
  _id: z.uuid(),
  /** Human-readable, e.g. "Chrome on Android". */
  device: z.string(),
  ip: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type Device = z.infer<typeof DeviceSchema>;

export const SwitcherLanguageSchema = z.object({ code: LanguageCodeSchema, name: z.string() });
export type SwitcherLanguage = z.infer<typeof SwitcherLanguageSchema>;

// Spec §3's calls. Sign-in and the reset are public and never wait in an outbox: they prove who is
// there now. The password step, the PIN step and the reset set or read the sign-in cookies (ADR 017).

export const login = defineAction({
  name: 'login',
  method: 'POST',
  path: '/api/auth/login',
  policy: 'public',
  summary: 'Checks the password and mails a sign-in PIN to the account’s address.',
  body: LoginBody,
  answer: LoginResult,
  failed: messages.loginFailed,
});

export const verifyPin = defineAction({
  name: 'verifyPin',
  method: 'POST',
  path: '/api/auth/verify-pin',
  policy: 'public',
  summary: 'Checks the mailed PIN of this browser’s sign-in attempt and opens a session.',
  body: VerifyPinBody,
  answer: VerifyPinResult,
  failed: messages.pinVerificationFailed,
});

export const logout = defineAction({
  name: 'logout',
  method: 'POST',
  path: '/api/auth/logout',
  policy: 'authenticated',
  summary: 'Ends the session the token names.',
  answer: z.null(),
});

export const forgotPassword = defineAction({
  name: 'forgotPassword',
  method: 'POST',
  path: '/api/auth/forgot-password',
  policy: 'public',
  summary: 'Mails a reset PIN to the account with this address; answers the same whether or not there is one.',
  body: ForgotPasswordBody,
  answer: ForgotPasswordResult,
  failed: messages.resetRequestFailed,
});

export const verifyResetPin = defineAction({
  name: 'verifyResetPin',
  method: 'POST',
  path: '/api/auth/verify-reset-pin',
  policy: 'public',
  summary: 'Checks a reset PIN and answers the temporary token the new password is set with.',
  body: VerifyResetPinBody,
  answer: VerifyResetPinResult,
  failed: messages.pinVerificationFailed,
});

export const resetPassword = defineAction({
  name: 'resetPassword',
  method: 'POST',
  path: '/api/auth/reset-password',
  policy: 'public',
  summary: 'Sets a new password with the temporary token and the PIN, and signs the account out everywhere.',
  body: ResetPasswordBody,
  answer: ResetPasswordResult,
  failed: messages.passwordResetFailed,
});

// The signed-in account's own calls (spec §7 Profile). None waits in an outbox: the answer is the
// session's user, a taken username is the open form's to show, and a password or a device signed
// out must take effect now.

export const getProfile = defineAction({
  name: 'getProfile',
  method: 'GET',
  path: '/api/profile',
  policy: 'authenticated',
  summary: 'The signed-in account.',
  answer: AuthUserSchema,
});

export const updateProfile = defineAction({
  name: 'updateProfile',
  method: 'PUT',
  path: '/api/profile',
  policy: 'authenticated',
  summary: 'Changes the signed-in account’s names, username or language.',
  body: ProfileUpdateBody,
  answer: AuthUserSchema,
});

export const changePassword = defineAction({
  name: 'changePassword',
  method: 'PUT',
  path: '/api/profile/change-password',
  policy: 'authenticated',
  summary: 'Changes the password, given the current one, and signs the account’s other sessions out.',
  body: ChangePasswordBody,
  answer: z.null(),
  failed: messages.changePasswordFailed,
});

export const listDevices = defineAction({
  name: 'listDevices',
  method: 'GET',
  path: '/api/profile/devices',
  policy: 'authenticated',
  summary: 'The signed-in account’s live sessions, the last used first.',
  answer: z.array(DeviceSchema),
});

export const signOutDevice = defineAction({
  name: 'signOutDevice',
  method: 'DELETE',
  path: '/api/profile/devices/:id',
  policy: 'authenticated',
  summary: 'Ends one of the signed-in account’s sessions.',
  params: z.object({ id: z.uuid() }),
  answer: z.null(),
});
