<?php

declare(strict_types=1);

namespace Nkra\Http;

/**
 * The built-in transport: ext-curl, nothing else, so the client works without any package.
 * One handle per exchange; the timeout bounds connecting, sending and reading the whole body.
 */
final class CurlTransport implements Transport
{
    public function __construct()
    {
        if (!extension_loaded('curl')) {
            throw new \LogicException('ext-curl is not loaded: install php-curl, or pass a PSR-18 client (httpClient) to NkraClient');
        }
    }

    public function send(string $method, string $url, array $headers, ?string $body, float $timeout): HttpResponse
    {
        $handle = curl_init();
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = "{$name}: {$value}";
        }
        $lines[] = 'Expect:'; // no 100-continue round trip
        $received = [];
        $timeoutMs = max(1, (int) ceil($timeout * 1000));
        curl_setopt_array($handle, [
            CURLOPT_URL => $url,
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT_MS => $timeoutMs,
            CURLOPT_CONNECTTIMEOUT_MS => $timeoutMs,
            CURLOPT_NOSIGNAL => true,
            CURLOPT_PROTOCOLS => CURLPROTO_HTTP | CURLPROTO_HTTPS,
            CURLOPT_HEADERFUNCTION => static function ($ch, string $line) use (&$received): int {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) {
                    $name = strtolower(trim($parts[0]));
                    $value = trim($parts[1]);
                    $received[$name] = isset($received[$name]) ? "{$received[$name]}, {$value}" : $value;
                } elseif (str_starts_with($line, 'HTTP/')) {
                    $received = []; // a new status line (after 1xx): keep only the final headers
                }
                return strlen($line);
            },
        ]);
        if ($body !== null) {
            curl_setopt($handle, CURLOPT_POSTFIELDS, $body);
        }
        $result = curl_exec($handle);
        $errno = curl_errno($handle);
        $error = curl_error($handle);
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        curl_close($handle);
        if ($result === false || $errno !== 0) {
            if ($errno === CURLE_OPERATION_TIMEDOUT) {
                throw new TransportException("No answer within {$timeout} s", true);
            }
            throw new TransportException("curl error {$errno}: {$error}");
        }
        return new HttpResponse($status, $received, (string) $result);
    }
}
