<?php

declare(strict_types=1);

namespace Nkra;

/**
 * Webhook signatures (docs/webhooks.md). Every delivery carries two:
 * X-Service-Signature, the lowercase hex HMAC-SHA256 of the raw body keyed with the whole secret
 * text (whsec_ included), and Standard Webhooks' webhook-signature, `v1,<base64 HMAC-SHA256 of
 * "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64 after whsec_, decoded.
 * Comparisons are constant time (hash_equals). Pass the body exactly as received (for example
 * file_get_contents('php://input') or $request->getContent()), never re-encoded JSON.
 *
 * $headers may be an array (any letter case; a value may be a list, the first is used), or a PSR-7
 * message, or any object with getHeaderLine() or a Symfony/Laravel HeaderBag (`headers->get()`).
 */
final class Webhooks
{
    public const SIGNATURE_HEADER = 'X-Service-Signature';
    public const EVENT_HEADER = 'X-Service-Event';
    /** X-Service-Signature with the previous secret, during the 24 h after a rotation. */
    public const PREVIOUS_SIGNATURE_HEADER = 'X-Service-Signature-Previous';
    public const STANDARD_ID_HEADER = 'webhook-id';
    public const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
    public const STANDARD_SIGNATURE_HEADER = 'webhook-signature';
    /** How far webhook-timestamp may be from the receiver's clock (either way) by default, as the reference libraries. */
    public const DEFAULT_TOLERANCE_SECONDS = 300;

    /** The X-Service-Signature of a body (for tests and local tooling). */
    public static function signBody(string $rawBody, string $secret): string
    {
        return hash_hmac('sha256', $rawBody, $secret);
    }

    /** True when $signature (the X-Service-Signature header) matches the raw body. */
    public static function verifySignature(string $rawBody, ?string $signature, string $secret): bool
    {
        if ($secret === '' || $signature === null) {
            return false;
        }
        $hex = strtolower(trim($signature));
        if (preg_match('/^[0-9a-f]{64}$/', $hex) !== 1) {
            return false;
        }
        return hash_equals(self::signBody($rawBody, $secret), $hex);
    }

    /** The Standard Webhooks HMAC key of a whsec_ secret: the base64 after the prefix (standard or URL-safe alphabet, padding optional). */
    public static function standardKey(string $secret): string
    {
        $encoded = str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret;
        $encoded = rtrim(strtr($encoded, '-_', '+/'), '=');
        $key = base64_decode($encoded . str_repeat('=', (4 - strlen($encoded) % 4) % 4), true);
        if ($key === false) {
            throw new \InvalidArgumentException('The secret is not base64 after whsec_');
        }
        return $key;
    }

    /** The Standard Webhooks signature entry `v1,<base64>` (for tests and local tooling). */
    public static function signStandard(string $id, int|string $timestamp, string $rawBody, string $secret): string
    {
        return 'v1,' . base64_encode(hash_hmac('sha256', "{$id}.{$timestamp}.{$rawBody}", self::standardKey($secret), true));
    }

    /** True when one of the space-separated v1 entries of a webhook-signature header matches (other versions are ignored). */
    public static function verifyStandardSignature(string $id, string $timestamp, string $rawBody, ?string $signatureHeader, string $secret): bool
    {
        if ($secret === '' || $id === '' || $signatureHeader === null || preg_match('/^[0-9]{1,15}$/', $timestamp) !== 1) {
            return false;
        }
        try {
            $expected = self::signStandard($id, $timestamp, $rawBody, $secret);
        } catch (\InvalidArgumentException) {
            return false;
        }
        $found = false;
        foreach (preg_split('/\s+/', trim($signatureHeader)) ?: [] as $entry) {
            $found = hash_equals($expected, $entry) || $found;
        }
        return $found;
    }

    /**
     * Verifies a delivery by both signatures, then parses the event: X-Service-Signature (or
     * X-Service-Signature-Previous) must match the body, and webhook-signature must match webhook-id,
     * webhook-timestamp and the body, with one of $secrets (your current secret, plus the previous one
     * while you rotate). A webhook-timestamp more than $toleranceSeconds from $now (Unix seconds,
     * default the clock) is refused, so a captured delivery cannot be replayed later; still drop
     * duplicates by webhook-id (= the event id).
     *
     * @param string|list<string> $secrets
     * @param array<string, string|list<string>>|object $headers
     * @throws NkraException INVALID_SIGNATURE or WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE (status 401), VALIDATION_ERROR (not a JSON object)
     */
    public static function verify(string $rawBody, array|object $headers, string|array $secrets, int $toleranceSeconds = self::DEFAULT_TOLERANCE_SECONDS,
        ?int $now = null): WebhookEvent
    {
        $header = self::headerReader($headers);
        $keys = array_values(array_filter(is_string($secrets) ? [$secrets] : $secrets, static fn ($s) => is_string($s) && $s !== ''));
        $id = $header(self::STANDARD_ID_HEADER) ?? '';
        $timestamp = trim($header(self::STANDARD_TIMESTAMP_HEADER) ?? '');
        if ($id === '' || preg_match('/^[0-9]{1,15}$/', $timestamp) !== 1) {
            throw new NkraException('INVALID_SIGNATURE', 'The webhook-id or webhook-timestamp header is missing or malformed', 401);
        }
        if (abs(($now ?? time()) - (int) $timestamp) > $toleranceSeconds) {
            throw new NkraException('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE',
                "The webhook-timestamp is more than {$toleranceSeconds} s away from now (a replay or a wrong clock)", 401);
        }
        $signatures = array_filter([$header(self::SIGNATURE_HEADER), $header(self::PREVIOUS_SIGNATURE_HEADER)], static fn ($s) => $s !== null && $s !== '');
        $legacy = false;
        $standard = false;
        foreach ($keys as $secret) {
            foreach ($signatures as $signature) {
                $legacy = self::verifySignature($rawBody, $signature, $secret) || $legacy;
            }
            $standard = self::verifyStandardSignature($id, $timestamp, $rawBody, $header(self::STANDARD_SIGNATURE_HEADER), $secret) || $standard;
        }
        if (!$legacy) {
            throw new NkraException('INVALID_SIGNATURE', 'The ' . self::SIGNATURE_HEADER . ' header does not match the body', 401);
        }
        if (!$standard) {
            throw new NkraException('INVALID_SIGNATURE', 'The webhook-signature header does not match', 401);
        }
        return self::parseEvent($rawBody, $header);
    }

    /**
     * Verifies X-Service-Signature only, then parses the event (the older single-signature helper).
     *
     * @param array<string, string|list<string>>|object $headers
     * @throws NkraException INVALID_SIGNATURE (401), VALIDATION_ERROR
     */
    public static function parse(string $rawBody, array|object $headers, string $secret): WebhookEvent
    {
        $header = self::headerReader($headers);
        if (!self::verifySignature($rawBody, $header(self::SIGNATURE_HEADER), $secret)) {
            throw new NkraException('INVALID_SIGNATURE', 'The ' . self::SIGNATURE_HEADER . ' header does not match the body', 401);
        }
        return self::parseEvent($rawBody, $header);
    }

    /** @param callable(string): ?string $header */
    private static function parseEvent(string $rawBody, callable $header): WebhookEvent
    {
        try {
            $payload = json_decode($rawBody, true, 512, JSON_THROW_ON_ERROR);
        } catch (\JsonException) {
            $payload = null;
        }
        if (!is_array($payload) || ($payload !== [] && array_is_list($payload))) {
            throw new NkraException('VALIDATION_ERROR', 'The webhook body is not a JSON object', 0, ['fieldErrors' => [], 'formErrors' => ['body must be a JSON object']]);
        }
        $text = static fn ($v): ?string => is_string($v) ? $v : null;
        $data = is_array($payload['data'] ?? null) && !array_is_list($payload['data']) ? $payload['data'] : $payload;
        $kind = $header(self::EVENT_HEADER) ?? $text($payload['kind'] ?? null) ?? $text($payload['event'] ?? null) ?? $text($payload['type'] ?? null) ?? 'unknown';
        return new WebhookEvent($kind, $text($payload['id'] ?? null), $text($payload['occurredAt'] ?? null) ?? $text($payload['createdAt'] ?? null), $data, $payload);
    }

    /** @return callable(string): ?string */
    private static function headerReader(array|object $headers): callable
    {
        if (is_object($headers)) {
            if (method_exists($headers, 'getHeaderLine')) { // PSR-7
                return static fn (string $name): ?string => ($line = $headers->getHeaderLine($name)) === '' ? null : $line;
            }
            if (property_exists($headers, 'headers') && is_object($headers->headers) && method_exists($headers->headers, 'get')) { // Symfony / Laravel Request
                return static fn (string $name): ?string => $headers->headers->get($name);
            }
            if (method_exists($headers, 'get')) { // a HeaderBag
                return static fn (string $name): ?string => $headers->get($name);
            }
            throw new \InvalidArgumentException('headers: pass an array, a PSR-7 message or a Symfony/Laravel request');
        }
        $lowered = [];
        foreach ($headers as $name => $value) {
            $value = is_array($value) ? ($value[0] ?? null) : $value;
            if (is_string($value)) {
                $lowered[strtolower((string) $name)] = $value;
            }
        }
        return static fn (string $name): ?string => $lowered[strtolower($name)] ?? null;
    }
}
