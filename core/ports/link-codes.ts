/** Short codes of tracked links (docs/links.md, "Codes"). */
export interface LinkCodes {
  /** A new code: LINK_CODE_LENGTH base62 characters from a cryptographic random source (about 71 bits). */
  next(): string;
}
