/** New record ids: unique strings, roughly time-ordered (UUIDv7 in production). */
export interface IdGenerator {
  next(): string;
}
