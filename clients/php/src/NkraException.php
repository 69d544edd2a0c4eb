<?php

declare(strict_types=1);

namespace Nkra;

/**
 * The one error type of the client: an API error ($status is the HTTP status, $errorCode the spec's
 * error code such as VALIDATION_ERROR or INSUFFICIENT_BALANCE), or a failure before any answer
 * ($status 0; NETWORK_ERROR, TIMEOUT, or VALIDATION_ERROR for input refused by the client itself).
 * A fraud-REJECTED send is not an error: it is a delivery log with status REJECTED.
 * getCode() returns the HTTP status (0 when there was no answer).
 */
class NkraException extends \RuntimeException
{
    /**
     * @param array<string, mixed> $details fieldErrors / formErrors for VALIDATION_ERROR, rule for VERIFY_RATE_LIMITED ...
     * @param float|null $retryAfter the answer's Retry-After in seconds, null when absent
     */
    public function __construct(
        public readonly string $errorCode,
        string $message,
        public readonly int $status = 0,
        public readonly array $details = [],
        public readonly ?string $requestId = null,
        public readonly ?float $retryAfter = null,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, $status, $previous);
    }

    /** @return array<string, list<string>> */
    public function fieldErrors(): array
    {
        $errors = $this->details['fieldErrors'] ?? [];
        return is_array($errors) ? $errors : [];
    }

    /** @return list<string> */
    public function formErrors(): array
    {
        $errors = $this->details['formErrors'] ?? [];
        return is_array($errors) ? array_values($errors) : [];
    }

    public static function validation(string $field, string $reason): self
    {
        return new self('VALIDATION_ERROR', "{$field}: {$reason}", 0, ['fieldErrors' => [$field => [$reason]], 'formErrors' => []]);
    }
}
