<?php

declare(strict_types=1);

namespace Nkra\Http;

/** A response as the transports hand it to the client: status, headers (lowercase names) and the whole body. */
final class HttpResponse
{
    /** @param array<string, string> $headers lowercase name => value (repeated headers joined with ", ") */
    public function __construct(
        public readonly int $status,
        public readonly array $headers,
        public readonly string $body,
    ) {
    }

    public function header(string $name): ?string
    {
        return $this->headers[strtolower($name)] ?? null;
    }
}
