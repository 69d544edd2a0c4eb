/** One schema change: SQL statements run in order inside one transaction. Never edit a landed one. */
export interface Migration {
  id: string;
  statements: readonly string[];
}
