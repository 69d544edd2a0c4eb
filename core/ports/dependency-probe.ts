export interface ProbeResult {
  status: 'ok' | 'degraded';
  message: string;
  latencyMs: number;
  /** False for an optional dependency that is not set up: reported, never counted as degraded. */
  configured: boolean;
}

/** A live check of one dependency (database, cache, queue) for GET /health. Never throws. */
export interface DependencyProbe {
  check(): Promise<ProbeResult>;
}
