<?php

declare(strict_types=1);

namespace Nkra\Http;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\StreamFactoryInterface;

/**
 * Any PSR-18 client (Guzzle, Symfony HttpClient's Psr18Client, ...) with PSR-17 factories to build
 * the requests. PSR-18 has no per-request timeout: configure it on your client (the client's
 * `timeout` option is not applied here). Every PSR-18 exception is a network failure to the client
 * (retried like one); a timeout is recognised when the exception's message says so.
 */
final class Psr18Transport implements Transport
{
    public function __construct(
        private readonly ClientInterface $client,
        private readonly RequestFactoryInterface $requestFactory,
        private readonly StreamFactoryInterface $streamFactory,
    ) {
    }

    public function send(string $method, string $url, array $headers, ?string $body, float $timeout): HttpResponse
    {
        $request = $this->requestFactory->createRequest($method, $url);
        foreach ($headers as $name => $value) {
            $request = $request->withHeader($name, $value);
        }
        if ($body !== null) {
            $request = $request->withBody($this->streamFactory->createStream($body));
        }
        try {
            $response = $this->client->sendRequest($request);
            $text = (string) $response->getBody();
        } catch (ClientExceptionInterface | \RuntimeException $error) {
            $timedOut = (bool) preg_match('/time(d)?[ -]?out/i', $error->getMessage());
            throw new TransportException($error->getMessage(), $timedOut, $error);
        }
        $received = [];
        foreach ($response->getHeaders() as $name => $values) {
            $received[strtolower((string) $name)] = implode(', ', $values);
        }
        return new HttpResponse($response->getStatusCode(), $received, $text);
    }
}
