<?php

declare(strict_types=1);

namespace Nkra\Laravel;

/**
 * What a notification's toNkra($notifiable) returns: a message (NkraMessage::create('text')) sent
 * with POST /messages/send, or an event (NkraMessage::event('order.shipped')) triggered with
 * POST /events/trigger so the event's template, channel plan and fallbacks apply.
 * toNkra() may also return a plain string (an SMS with that body).
 */
final class NkraMessage
{
    public ?string $body = null;
    public ?string $event = null;
    public string $channel = 'SMS';
    public ?string $to = null;
    public ?string $contactId = null;
    public ?string $subject = null;
    public ?string $templateId = null;
    /** @var array<string, string> */
    public array $variables = [];
    public ?string $senderId = null;
    public ?string $countryCode = null;
    /** BCP 47 ('tw', 'fr', 'en-GH'): the template's text in this locale when it has it (docs/templates.md). */
    public ?string $locale = null;
    public bool $async = false;
    public ?string $idempotencyKey = null;

    public static function create(string $body = ''): self
    {
        $message = new self();
        $message->body = $body;
        return $message;
    }

    public static function event(string $slug): self
    {
        $message = new self();
        $message->event = $slug;
        return $message;
    }

    public function body(string $body): self { $this->body = $body; return $this; }
    public function channel(string $channel): self { $this->channel = $channel; return $this; }
    /** The recipient; default the notifiable's routeNotificationForNkra() (or Notification::route('nkra', ...)). */
    public function to(string $to): self { $this->to = $to; return $this; }
    /** Events only: a contact instead of an address (its channels and consent apply). */
    public function contactId(string $contactId): self { $this->contactId = $contactId; return $this; }
    public function subject(string $subject): self { $this->subject = $subject; return $this; }
    public function template(string $templateId): self { $this->templateId = $templateId; return $this; }
    /** @param array<string, string> $variables */
    public function variables(array $variables): self { $this->variables = $variables; return $this; }
    public function from(string $senderId): self { $this->senderId = $senderId; return $this; }
    public function countryCode(string $countryCode): self { $this->countryCode = $countryCode; return $this; }
    public function locale(string $locale): self { $this->locale = $locale; return $this; }
    /** Queue instead of delivering during the request (answer QUEUED). */
    public function async(bool $async = true): self { $this->async = $async; return $this; }
    public function idempotencyKey(string $key): self { $this->idempotencyKey = $key; return $this; }
}
