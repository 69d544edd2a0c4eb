<?php

declare(strict_types=1);

namespace Nkra;

use Nkra\Http\CurlTransport;
use Nkra\Http\HttpResponse;
use Nkra\Http\Psr18Transport;
use Nkra\Http\Transport;
use Nkra\Http\TransportException;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\StreamFactoryInterface;

/**
 * Client of the Nkra API. Inputs and results are arrays with the API's field names (docs: the
 * OpenAPI document and clients/php/README.md).
 *
 * Writes (send, bulk, trigger, verify start) always carry an idempotencyKey - the caller's, or one
 * generated per call and reused for that call's retries - so a retry after a lost answer is
 * answered from the first attempt instead of sending again. Network errors, timeouts, 429 and 5xx
 * are retried with exponential backoff and full jitter, waiting Retry-After when the API gives one.
 */
final class NkraClient
{
    /** The API version this client was written for (paths carry no version prefix). */
    public const API_VERSION = '1.0.0';
    public const BULK_MAX = 100;

    public readonly string $baseUrl;
    /** The Verify API: $client->verify->start([...]), check, resend, cancel, get. */
    public readonly Verify $verify;
    private readonly Transport $transport;

    /**
     * @param string $apiKey an API key (nk_test_... sandbox or nk_live_...), sent as X-API-Key
     * @param float $timeout seconds per attempt (default 30: synchronous sends wait for the provider); not applied to a PSR-18 client
     * @param int $maxRetries retries after the first attempt for network errors, timeouts, 429 and 5xx (0 disables)
     * @param float $baseDelay first backoff step in seconds: attempt n waits a random time up to min(maxDelay, baseDelay * 2^n)
     * @param float $maxRetryAfter a Retry-After longer than this (seconds) is not waited for: the error is thrown
     * @param ClientInterface|null $httpClient any PSR-18 client; default the built-in curl transport
     * @param RequestFactoryInterface|null $requestFactory PSR-17, required with $httpClient unless it is one itself
     * @param StreamFactoryInterface|null $streamFactory PSR-17, required with $httpClient unless it is one itself
     * @param Transport|null $transport a transport of your own (wins over $httpClient)
     */
    public function __construct(
        private readonly string $apiKey,
        string $baseUrl = 'http://localhost:3000',
        private readonly float $timeout = 30.0,
        private readonly int $maxRetries = 3,
        private readonly float $baseDelay = 0.3,
        private readonly float $maxDelay = 10.0,
        private readonly float $maxRetryAfter = 60.0,
        ?ClientInterface $httpClient = null,
        ?RequestFactoryInterface $requestFactory = null,
        ?StreamFactoryInterface $streamFactory = null,
        ?Transport $transport = null,
    ) {
        if ($apiKey === '') {
            throw NkraException::validation('apiKey', 'is required');
        }
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->transport = $transport ?? ($httpClient !== null ? self::psr18($httpClient, $requestFactory, $streamFactory) : new CurlTransport());
        $this->verify = new Verify($this);
    }

    /**
     * POST /messages/send: channel, to, body, subject, countryCode, templateId, locale (BCP 47, picks the template's variant), variables, senderId, async, idempotencyKey.
     * Returns the delivery log, also when the send was REJECTED by fraud rules (status REJECTED, errorCode).
     *
     * @param array<string, mixed> $input
     * @param array{timeout?: float, maxRetries?: int} $options
     * @return array<string, mixed>
     */
    public function send(array $input, array $options = []): array
    {
        return $this->request('POST', '/messages/send', self::withKey($input), $options);
    }

    /**
     * POST /messages/bulk: ['messages' => 1-100 messages, 'async'?, 'countryCode'?, 'idempotencyKey'?]; one delivery log each, in order.
     * More than 100 (or no) messages throw VALIDATION_ERROR before any request.
     *
     * @param array<string, mixed> $input
     * @param array{timeout?: float, maxRetries?: int} $options
     * @return list<array<string, mixed>>
     */
    public function sendBulk(array $input, array $options = []): array
    {
        $messages = $input['messages'] ?? null;
        $count = is_array($messages) && array_is_list($messages) ? count($messages) : -1;
        if ($count < 1 || $count > self::BULK_MAX) {
            $reason = match (true) {
                $count < 0 => 'must be a list',
                $count === 0 => 'must contain at least 1 message',
                default => 'must contain at most ' . self::BULK_MAX . " messages (got {$count})",
            };
            throw NkraException::validation('messages', $reason);
        }
        return $this->request('POST', '/messages/bulk', self::withKey($input), $options);
    }

    /**
     * POST /events/trigger: event (the slug), to or contactId, variables, countryCode, locale (BCP 47), idempotencyKey.
     * Returns the trigger with its channel plan, steps and every delivery log.
     *
     * @param array<string, mixed> $input
     * @param array{timeout?: float, maxRetries?: int} $options
     * @return array<string, mixed>
     */
    public function triggerEvent(array $input, array $options = []): array
    {
        return $this->request('POST', '/events/trigger', self::withKey($input), $options);
    }

    /**
     * GET /messages/{id}: one delivery log with its body, provider attempts (attemptLog) and status history.
     *
     * @param array{timeout?: float, maxRetries?: int} $options
     * @return array<string, mixed>
     */
    public function getMessage(string $id, array $options = []): array
    {
        return $this->request('GET', '/messages/' . rawurlencode($id), null, $options);
    }

    /** A random idempotency key (UUID v4 layout, prefixed nkc-). */
    public static function newIdempotencyKey(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        $hex = bin2hex($bytes);
        return sprintf('nkc-%s-%s-%s-%s-%s', substr($hex, 0, 8), substr($hex, 8, 4), substr($hex, 12, 4), substr($hex, 16, 4), substr($hex, 20));
    }

    /** Retry-After as seconds or an HTTP date, in seconds (null when absent or unreadable). */
    public static function parseRetryAfter(?string $value): ?float
    {
        if ($value === null || trim($value) === '') {
            return null;
        }
        if (is_numeric(trim($value))) {
            return max(0.0, (float) trim($value));
        }
        $date = \DateTimeImmutable::createFromFormat(\DateTimeInterface::RFC7231, trim($value));
        if ($date === false) {
            $time = strtotime($value);
            return $time === false ? null : max(0.0, (float) ($time - time()));
        }
        return max(0.0, (float) ($date->getTimestamp() - time()));
    }

    /**
     * One API call with the retry policy. Used by Verify; not part of the public API.
     *
     * @internal
     * @param array<string, mixed>|null $body
     * @param array{timeout?: float, maxRetries?: int} $options
     */
    public function request(string $method, string $path, ?array $body, array $options = []): mixed
    {
        $maxRetries = $options['maxRetries'] ?? $this->maxRetries;
        $timeout = (float) ($options['timeout'] ?? $this->timeout);
        $payload = $body === null ? null : json_encode(self::jsonObject($body), JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
        for ($attempt = 0; ; $attempt++) {
            try {
                return $this->once($method, $path, $payload, $timeout);
            } catch (NkraException $failure) {
                $retryable = $failure->status === 0 ? in_array($failure->errorCode, ['NETWORK_ERROR', 'TIMEOUT'], true)
                    : ($failure->status === 429 || $failure->status >= 500);
                if (!$retryable || $attempt >= $maxRetries) {
                    throw $failure;
                }
                if ($failure->retryAfter !== null && $failure->retryAfter > $this->maxRetryAfter) {
                    throw $failure;
                }
                $backoff = (mt_rand() / mt_getrandmax()) * min($this->maxDelay, $this->baseDelay * (2 ** $attempt));
                usleep((int) round(($failure->retryAfter ?? $backoff) * 1_000_000));
            }
        }
    }

    private function once(string $method, string $path, ?string $payload, float $timeout): mixed
    {
        $headers = ['X-API-Key' => $this->apiKey, 'Accept' => 'application/json', 'User-Agent' => 'nkra-client-php/' . self::API_VERSION];
        if ($payload !== null) {
            $headers['Content-Type'] = 'application/json';
        }
        try {
            $response = $this->transport->send($method, $this->baseUrl . $path, $headers, $payload, $timeout);
        } catch (TransportException $error) {
            if ($error->timedOut) {
                throw new NkraException('TIMEOUT', "No answer within {$timeout} s", 0, [], null, null, $error);
            }
            throw new NkraException('NETWORK_ERROR', 'The request failed before an answer: ' . $error->getMessage(), 0, [], null, null, $error);
        }
        $envelope = self::decode($response);
        if ($response->status >= 200 && $response->status < 300 && is_array($envelope) && ($envelope['success'] ?? null) === true) {
            return $envelope['data'] ?? null;
        }
        $error = is_array($envelope) && is_array($envelope['error'] ?? null) ? $envelope['error'] : [];
        $code = is_string($error['code'] ?? null) ? $error['code'] : "HTTP_{$response->status}";
        $message = is_string($error['message'] ?? null) ? $error['message'] : "HTTP {$response->status}";
        throw new NkraException($code, $message, $response->status, is_array($error['details'] ?? null) ? $error['details'] : [],
            $response->header('x-request-id'), self::parseRetryAfter($response->header('retry-after')));
    }

    private static function decode(HttpResponse $response): mixed
    {
        if ($response->body === '') {
            return null;
        }
        try {
            return json_decode($response->body, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            return null;
        }
    }

    /**
     * @param array<string, mixed> $input
     * @return array<string, mixed>
     */
    private static function withKey(array $input): array
    {
        if (!isset($input['idempotencyKey']) || $input['idempotencyKey'] === '') {
            $input['idempotencyKey'] = self::newIdempotencyKey();
        }
        return $input;
    }

    /** Empty maps (variables, the body of cancel) must be JSON objects, not []. */
    private static function jsonObject(array $body): object|array
    {
        if ($body === []) {
            return new \stdClass();
        }
        foreach (['variables'] as $map) {
            if (($body[$map] ?? null) === []) {
                $body[$map] = new \stdClass();
            }
        }
        if (isset($body['messages']) && is_array($body['messages'])) {
            foreach ($body['messages'] as $i => $message) {
                if (is_array($message) && ($message['variables'] ?? null) === []) {
                    $body['messages'][$i]['variables'] = new \stdClass();
                }
            }
        }
        return $body;
    }

    private static function psr18(ClientInterface $client, ?RequestFactoryInterface $requests, ?StreamFactoryInterface $streams): Psr18Transport
    {
        $requests ??= $client instanceof RequestFactoryInterface ? $client : null;
        $streams ??= $client instanceof StreamFactoryInterface ? $client : null;
        if ($requests === null || $streams === null) {
            throw new \LogicException('A PSR-18 httpClient needs PSR-17 requestFactory and streamFactory (e.g. GuzzleHttp\Psr7\HttpFactory or Nyholm\Psr7\Factory\Psr17Factory)');
        }
        return new Psr18Transport($client, $requests, $streams);
    }
}
