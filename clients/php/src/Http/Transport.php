<?php

declare(strict_types=1);

namespace Nkra\Http;

/**
 * How the client reaches the API: one HTTP exchange, no retries (the client retries).
 * Implementations: CurlTransport (built in, ext-curl) and Psr18Transport (any PSR-18 client).
 */
interface Transport
{
    /**
     * @param array<string, string> $headers
     * @param float $timeout seconds for the whole exchange (connect, send, read the body)
     * @throws TransportException when no complete answer arrived (network error or timeout)
     */
    public function send(string $method, string $url, array $headers, ?string $body, float $timeout): HttpResponse;
}
