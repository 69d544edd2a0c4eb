<?php

declare(strict_types=1);

namespace Nkra\Laravel;

use Nkra\NkraClient;

/**
 * Builds the client from Laravel's `services.nkra` configuration (config/services.php):
 *
 *     'nkra' => [
 *         'api_key' => env('NKRA_API_KEY'),
 *         'base_url' => env('NKRA_BASE_URL', 'http://localhost:3000'),
 *         'timeout' => 30,        // seconds per attempt
 *         'max_retries' => 3,
 *     ],
 */
final class ClientFactory
{
    /** @param array<string, mixed> $config */
    public static function fromConfig(array $config): NkraClient
    {
        $apiKey = $config['api_key'] ?? null;
        if (!is_string($apiKey) || $apiKey === '') {
            throw new \LogicException('services.nkra.api_key is not set (NKRA_API_KEY)');
        }
        return new NkraClient(
            $apiKey,
            baseUrl: is_string($config['base_url'] ?? null) && $config['base_url'] !== '' ? $config['base_url'] : 'http://localhost:3000',
            timeout: (float) ($config['timeout'] ?? 30.0),
            maxRetries: (int) ($config['max_retries'] ?? 3),
        );
    }
}
