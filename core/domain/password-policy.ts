/** Password rules (spec section 8: minimum 8 characters). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** A few passwords so common that length alone does not make them acceptable. */
const COMMON = new Set(['password', 'password1', '12345678', '123456789', '1234567890', 'qwertyui', 'qwerty123', 'iloveyou', 'abcdefgh', '11111111', '00000000', 'letmein1', 'welcome1', 'password123']);

/** Returns the reason a password is too weak, or null when it is acceptable. */
export function passwordWeakness(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (COMMON.has(password.toLowerCase())) return 'is too common';
  if (new Set(password).size < 4) return 'must use more than three distinct characters';
  return null;
}
