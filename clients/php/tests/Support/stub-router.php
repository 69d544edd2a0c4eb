<?php

declare(strict_types=1);

// Router of `php -S` for StubServer: answers each request with the next queued reply and records
// what it saw. State lives in the JSON file named by NKRA_STUB_STATE (the built-in server runs each
// request in a fresh script run).
$file = getenv('NKRA_STUB_STATE');
$handle = fopen($file, 'c+');
flock($handle, LOCK_EX);
$state = json_decode(stream_get_contents($handle) ?: '{"replies":[],"seen":[]}', true);
$raw = file_get_contents('php://input');
$state['seen'][] = [
    'method' => $_SERVER['REQUEST_METHOD'], 'path' => $_SERVER['REQUEST_URI'], 'apiKey' => $_SERVER['HTTP_X_API_KEY'] ?? null,
    'body' => $raw === '' ? null : $raw,
];
$reply = array_shift($state['replies']) ?? ['status' => 500, 'body' => ['success' => false, 'error' => ['code' => 'INTERNAL', 'message' => 'no reply queued']]];
ftruncate($handle, 0);
rewind($handle);
fwrite($handle, json_encode($state));
flock($handle, LOCK_UN);
fclose($handle);
if (isset($reply['sleep'])) {
    usleep((int) ($reply['sleep'] * 1_000_000));
}
http_response_code($reply['status']);
header('Content-Type: application/json');
header('X-Request-Id: req-' . count($state['seen']));
foreach ($reply['headers'] ?? [] as $name => $value) {
    header("{$name}: {$value}");
}
echo json_encode($reply['body']);
