<?php

declare(strict_types=1);

namespace Nkra;

/** A verified webhook delivery. */
final class WebhookEvent
{
    /**
     * @param string $kind from the X-Service-Event header, else the payload's kind/event/type field
     * @param array<string, mixed> $data the payload's data object (the whole payload when it has none)
     * @param array<string, mixed> $payload the whole parsed payload
     */
    public function __construct(
        public readonly string $kind,
        public readonly ?string $id,
        public readonly ?string $occurredAt,
        public readonly array $data,
        public readonly array $payload,
    ) {
    }
}
