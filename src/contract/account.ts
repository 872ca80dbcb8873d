import { Type, type Static } from 'typebox';

/** A password as typed: the rules (10 characters, letters and digits or symbols) are the server's, worded in its answer. */
const Password = Type.String({ minLength: 1, maxLength: 200 });
/** An authenticator's 6 digits, or a recovery code (`xxxxx-xxxxx`). */
const Code = Type.String({ minLength: 1, maxLength: 20, description: 'A 6-digit code of the authenticator app, or a recovery code' });

/** The account's sign-in settings on the embedded provider. */
export const AccountSecurity = Type.Object({
  email: Type.String(),
  twoFactor: Type.Boolean({ description: 'Whether sign-in asks for a code after the password' }),
  recoveryCodesLeft: Type.Integer({ minimum: 0, maximum: 10 }),
});
export type AccountSecurity = Static<typeof AccountSecurity>;

export const PasswordChange = Type.Object({ currentPassword: Password, newPassword: Password }, { additionalProperties: false });
export type PasswordChange = Static<typeof PasswordChange>;

export const EmailChange = Type.Object(
  { password: Password, newEmail: Type.String({ minLength: 1, maxLength: 254, description: 'Changed once the link mailed there is opened' }) },
  { additionalProperties: false },
);
export type EmailChange = Static<typeof EmailChange>;

export const TwoFactorSetup = Type.Object({
  secret: Type.String({ description: 'The base32 secret, to type in when the QR code cannot be scanned' }),
  otpauthUrl: Type.String(),
  qrCode: Type.String({ description: 'The otpauth URL as a PNG data URL' }),
});
export type TwoFactorSetup = Static<typeof TwoFactorSetup>;

export const TwoFactorEnable = Type.Object({ code: Code }, { additionalProperties: false });
export type TwoFactorEnable = Static<typeof TwoFactorEnable>;

export const RecoveryCodes = Type.Object({ recoveryCodes: Type.Array(Type.String(), { description: 'Each works once in place of a code; shown only now' }) });
export type RecoveryCodes = Static<typeof RecoveryCodes>;

export const TwoFactorDisable = Type.Object({ password: Password, code: Code }, { additionalProperties: false });
export type TwoFactorDisable = Static<typeof TwoFactorDisable>;

/**
 * Deleting one's account: the password on the embedded provider (and a code when two-factor is
 * on); with another issuer neither is asked (its account console confirms who the person is).
 */
export const AccountDelete = Type.Object({ password: Type.Optional(Password), code: Type.Optional(Code) }, { additionalProperties: false });
export type AccountDelete = Static<typeof AccountDelete>;

export const AccountDeleted = Type.Object({
  creditsForfeited: Type.Integer({ minimum: 0, description: 'The credits the balance held, forfeited with the account' }),
});
export type AccountDeleted = Static<typeof AccountDeleted>;

/** The name a deleted account's row, invoices and ledger keep in place of the person's: never theirs, always the same for one account. */
export const deletedAccountName = (userId: string) => `Compte supprimé ${userId.slice(0, 8)}`;
