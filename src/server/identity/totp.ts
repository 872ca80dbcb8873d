import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';

/** A secret for an authenticator app: 20 random bytes in base32, as the apps expect. */
export const newTotpSecret = () => generateSecret({ length: 20 });

export const totpUri = (username: string, secret: string) => generateURI({ issuer: 'BlockHost', label: username, secret });

/** The otpauth URI as a PNG data URL, for the setup page to show without another request. */
export async function totpQrCode(uri: string): Promise<string> {
  // Loaded at the first setup, not at every start of the API.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
}

/**
 * The 30-second step `code` belongs to at `now`, within one step either way (a phone's clock a
 * little off), or undefined when it belongs to none.
 */
export async function totpStep(secret: string, code: string, now: Date): Promise<number | undefined> {
  const epoch = Math.floor(now.getTime() / 1000);
  const result = await verify({ secret, token: code, epoch, epochTolerance: 30 });
  return result.valid ? Math.floor(epoch / 30) + result.delta : undefined;
}

/** Ten recovery codes of 10 hex digits in two groups (40 bits each), shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: 10 }, () => {
    const hex = randomBytes(5).toString('hex');
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
}
