<?php

declare(strict_types=1);

namespace Nkra;

/**
 * Verify (docs/verify.md): one-time passcodes. start always carries an idempotencyKey (a retry
 * answers the first verification); check answers `valid` and the status, never throwing for a
 * wrong code; resend is never retried (it carries no idempotency key: a retry after a lost answer
 * would send a second code and hit the 30 s cooldown).
 */
final class Verify
{
    public function __construct(private readonly NkraClient $client)
    {
    }

    /**
     * POST /verify/start: to, channel or channels, countryCode, codeLength, expiresInSeconds,
     * fallbackAfterSeconds, locale, template, ipAddress, idempotencyKey.
     *
     * @param array<string, mixed> $input
     * @param array{timeout?: float, maxRetries?: int} $options
     * @return array<string, mixed> the verification (a sandbox key's answer carries sandboxCode)
     */
    public function start(array $input, array $options = []): array
    {
        if (!isset($input['idempotencyKey']) || $input['idempotencyKey'] === '') {
            $input['idempotencyKey'] = NkraClient::newIdempotencyKey();
        }
        return $this->client->request('POST', '/verify/start', $input, $options);
    }

    /**
     * POST /verify/check: ['id' => ..., 'code' => ...] or ['to' => ..., 'countryCode'?, 'code' => ...].
     *
     * @param array<string, mixed> $input
     * @param array{timeout?: float, maxRetries?: int} $options
     * @return array{id: string, status: string, valid: bool, remainingAttempts: int}
     */
    public function check(array $input, array $options = []): array
    {
        return $this->client->request('POST', '/verify/check', $input, $options);
    }

    /**
     * POST /verify/{id}/resend (optional ['channel' => ...]): a new code; 30 s apart, 5 sends at most.
     *
     * @param array<string, mixed> $input
     * @param array{timeout?: float} $options
     * @return array<string, mixed>
     */
    public function resend(string $id, array $input = [], array $options = []): array
    {
        return $this->client->request('POST', '/verify/' . rawurlencode($id) . '/resend', $input, ['maxRetries' => 0] + $options);
    }

    /**
     * POST /verify/{id}/cancel.
     *
     * @param array{timeout?: float, maxRetries?: int} $options
     * @return array<string, mixed>
     */
    public function cancel(string $id, array $options = []): array
    {
        return $this->client->request('POST', '/verify/' . rawurlencode($id) . '/cancel', [], $options);
    }

    /**
     * GET /verify/{id}: the verification with its sends' delivery status.
     *
     * @param array{timeout?: float, maxRetries?: int} $options
     * @return array<string, mixed>
     */
    public function get(string $id, array $options = []): array
    {
        return $this->client->request('GET', '/verify/' . rawurlencode($id), null, $options);
    }
}
