<?php

// Send one SMS with a sandbox key: NKRA_API_KEY=nk_test_... php examples/send.php
// (with Composer: require 'vendor/autoload.php'; here the package's own classes are loaded directly)

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    if (str_starts_with($class, 'Nkra\\')) {
        require __DIR__ . '/../src/' . str_replace('\\', '/', substr($class, 5)) . '.php';
    }
});

use Nkra\NkraClient;
use Nkra\NkraException;

$client = new NkraClient(getenv('NKRA_API_KEY') ?: '', baseUrl: getenv('NKRA_BASE_URL') ?: 'http://localhost:3000');
try {
    $log = $client->send(['channel' => 'SMS', 'to' => getenv('NKRA_TO') ?: '+233241234567', 'body' => 'Your order has shipped']);
    echo $log['status'], ' ', $log['id'], ' ', $log['errorCode'] ?? '', PHP_EOL;
} catch (NkraException $error) {
    fwrite(STDERR, "failed: {$error->errorCode} {$error->status} {$error->getMessage()}" . PHP_EOL);
    exit(1);
}
