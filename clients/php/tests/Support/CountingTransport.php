<?php

declare(strict_types=1);

namespace Nkra\Tests\Support;

use Nkra\Http\CurlTransport;
use Nkra\Http\HttpResponse;
use Nkra\Http\Transport;

/** The built-in transport, counting exchanges (to prove a refusal made no request). */
final class CountingTransport implements Transport
{
    public int $calls = 0;
    private CurlTransport $inner;

    public function __construct()
    {
        $this->inner = new CurlTransport();
    }

    public function send(string $method, string $url, array $headers, ?string $body, float $timeout): HttpResponse
    {
        $this->calls++;
        return $this->inner->send($method, $url, $headers, $body, $timeout);
    }
}
