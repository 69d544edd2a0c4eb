/** S3 error codes that mean the credentials (or the permissions given to them) are wrong. */
const CREDENTIAL_ERRORS = new Set(['SignatureDoesNotMatch', 'InvalidAccessKeyId', 'AccessDenied', 'InvalidToken', 'ExpiredToken', 'CredentialsProviderError']);

/**
 * One line for an error of the AWS SDK: the S3 error code, the HTTP status and the message
 * (`SignatureDoesNotMatch (HTTP 403): The request signature we calculated does not match ...`), or a
 * network error or timeout as the SDK reports it. Built from those fields only, never from the request.
 */
export function describeS3Error(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const code = error.name && error.name !== 'Error' ? error.name : '';
  const head = [code, status ? `(HTTP ${status})` : ''].filter(Boolean).join(' ');
  const text = head ? `${head}: ${error.message}` : error.message;
  return CREDENTIAL_ERRORS.has(error.name) ? `${text} (check the S3 access key, its secret and the bucket's permissions)` : text;
}
