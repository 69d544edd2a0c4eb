<?php

declare(strict_types=1);

namespace Nkra\Tests\Support;

/** A stand-in for the API over real HTTP (`php -S` with stub-router.php): each test queues its replies. */
final class StubServer
{
    public readonly string $url;
    private string $stateFile;
    /** @var resource */
    private $process;

    public function __construct()
    {
        $this->stateFile = tempnam(sys_get_temp_dir(), 'nkra-stub-');
        $this->reset();
        $port = self::freePort();
        $this->url = "http://127.0.0.1:{$port}";
        $env = ['NKRA_STUB_STATE' => $this->stateFile, 'PATH' => getenv('PATH') ?: '/usr/bin:/bin'];
        $command = [PHP_BINARY, '-S', "127.0.0.1:{$port}", __DIR__ . '/stub-router.php'];
        $this->process = proc_open($command, [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, null, $env);
        $deadline = microtime(true) + 10;
        while (microtime(true) < $deadline) {
            $socket = @stream_socket_client("tcp://127.0.0.1:{$port}", $errno, $error, 0.2);
            if ($socket !== false) {
                fclose($socket);
                return;
            }
            usleep(50_000);
        }
        throw new \RuntimeException('the stub server did not start');
    }

    /** @param array{status: int, body: mixed, headers?: array<string, string>, sleep?: float} ...$replies */
    public function queue(array ...$replies): void
    {
        $state = $this->state();
        array_push($state['replies'], ...$replies);
        file_put_contents($this->stateFile, json_encode($state));
    }

    /** @return list<array{method: string, path: string, apiKey: ?string, body: ?array}> */
    public function seen(): array
    {
        return array_map(static fn (array $s) => ['body' => $s['body'] === null ? null : json_decode($s['body'], true)] + $s, $this->state()['seen']);
    }

    /** The raw JSON bodies received (to check {} against []). */
    public function rawBodies(): array
    {
        return array_column($this->state()['seen'], 'body');
    }

    public function reset(): void
    {
        file_put_contents($this->stateFile, json_encode(['replies' => [], 'seen' => []]));
    }

    public function close(): void
    {
        proc_terminate($this->process);
        proc_close($this->process);
        @unlink($this->stateFile);
    }

    public static function ok(mixed $data, int $status = 200): array
    {
        return ['status' => $status, 'body' => ['success' => true, 'data' => $data]];
    }

    public static function fail(int $status, string $code, array $details = [], array $headers = []): array
    {
        return ['status' => $status, 'body' => ['success' => false, 'error' => ['code' => $code, 'message' => $code, 'details' => (object) $details]], 'headers' => $headers];
    }

    public static function freePort(): int
    {
        $server = stream_socket_server('tcp://127.0.0.1:0');
        $name = stream_socket_get_name($server, false);
        fclose($server);
        return (int) substr($name, strrpos($name, ':') + 1);
    }

    private function state(): array
    {
        return json_decode((string) file_get_contents($this->stateFile), true);
    }
}
