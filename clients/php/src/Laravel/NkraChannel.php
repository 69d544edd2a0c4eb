<?php

declare(strict_types=1);

namespace Nkra\Laravel;

use Nkra\NkraClient;

/**
 * The 'nkra' notification channel: `via()` returns ['nkra'] (or NkraChannel::class) and the
 * notification has toNkra($notifiable) returning an NkraMessage or a string.
 *
 * Written against no Laravel class (Illuminate\Notifications\Notification is a class, not an
 * interface), so it is tested without Laravel: $notification is any object with toNkra(), and
 * Laravel's public `id` property when present; $notifiable any object with routeNotificationFor()
 * (the Notifiable trait, AnonymousNotifiable) or routeNotificationForNkra().
 *
 * The idempotency key is derived from the notification's id and the recipient, so a queued
 * notification whose job is retried (the id is serialized with it) is sent once, not twice.
 * A notifiable with no route and no `to` on the message is skipped (null), as Laravel's own
 * channels do. The answer (delivery log or event trigger) is returned, so NotificationSent
 * listeners see it; a fraud-REJECTED send is a result with status REJECTED, not an exception.
 * API errors throw Nkra\NkraException (a queued notification's job then fails and is retried).
 */
final class NkraChannel
{
    public function __construct(private readonly NkraClient $client)
    {
    }

    /** @return array<string, mixed>|null */
    public function send(object $notifiable, object $notification): ?array
    {
        if (!method_exists($notification, 'toNkra')) {
            throw new \LogicException(get_class($notification) . ' is sent through the nkra channel but has no toNkra($notifiable) method');
        }
        $message = $notification->toNkra($notifiable);
        if (is_string($message)) {
            $message = NkraMessage::create($message);
        }
        if (!$message instanceof NkraMessage) {
            throw new \LogicException(get_class($notification) . '::toNkra() must return an ' . NkraMessage::class . ' or a string');
        }
        $to = $message->to ?? self::route($notifiable, $notification);
        if (($to === null || $to === '') && $message->contactId === null) {
            return null;
        }
        $key = $message->idempotencyKey ?? self::keyFor($notification, $message, (string) ($to ?? $message->contactId));
        if ($message->event !== null) {
            return $this->client->triggerEvent(self::compact([
                'event' => $message->event, 'to' => $to, 'contactId' => $message->contactId, 'variables' => $message->variables ?: null,
                'countryCode' => $message->countryCode, 'locale' => $message->locale, 'idempotencyKey' => $key,
            ]));
        }
        return $this->client->send(self::compact([
            'channel' => $message->channel, 'to' => $to, 'body' => $message->body === '' ? null : $message->body, 'subject' => $message->subject,
            'templateId' => $message->templateId, 'variables' => $message->variables ?: null, 'senderId' => $message->senderId,
            'countryCode' => $message->countryCode, 'locale' => $message->locale, 'async' => $message->async ? true : null, 'idempotencyKey' => $key,
        ]));
    }

    private static function route(object $notifiable, object $notification): ?string
    {
        if (method_exists($notifiable, 'routeNotificationFor')) {
            $route = $notifiable->routeNotificationFor('nkra', $notification);
        } elseif (method_exists($notifiable, 'routeNotificationForNkra')) {
            $route = $notifiable->routeNotificationForNkra($notification);
        } else {
            $route = null;
        }
        return is_string($route) ? $route : null;
    }

    /** Laravel gives each (notification, notifiable) an id (a UUID) kept across a queued job's retries. */
    private static function keyFor(object $notification, NkraMessage $message, string $recipient): ?string
    {
        $id = property_exists($notification, 'id') ? $notification->id : null;
        if (!is_string($id) || $id === '') {
            return null; // the client generates one per call
        }
        return 'laravel-' . substr(hash('sha256', $id . "\n" . ($message->event ?? $message->channel) . "\n" . $recipient), 0, 40);
    }

    /**
     * @param array<string, mixed> $values
     * @return array<string, mixed>
     */
    private static function compact(array $values): array
    {
        return array_filter($values, static fn ($v) => $v !== null);
    }
}
