<?php

declare(strict_types=1);

// Composer's autoloader when the package was installed with Composer; otherwise a PSR-4 loader for
// src/ and tests/ plus the PSR interfaces and Guzzle (the test suite's PSR-18 client) from Debian's
// php-psr-http-* and php-guzzlehttp-guzzle packages (/usr/share/php), as .ci/run installs them.
if (is_file(__DIR__ . '/../vendor/autoload.php')) {
    require __DIR__ . '/../vendor/autoload.php';
} else {
    spl_autoload_register(static function (string $class): void {
        foreach (['Nkra\\Tests\\' => __DIR__ . '/', 'Nkra\\' => __DIR__ . '/../src/'] as $prefix => $dir) {
            if (str_starts_with($class, $prefix)) {
                $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
                if (is_file($file)) {
                    require $file;
                }
                return;
            }
        }
    });
    foreach (['Psr/Http/Message/autoload.php', 'Psr/Http/Client/autoload.php', 'GuzzleHttp/autoload.php'] as $debian) {
        foreach (explode(PATH_SEPARATOR, get_include_path()) + [99 => '/usr/share/php'] as $root) {
            if (is_file("{$root}/{$debian}")) {
                require_once "{$root}/{$debian}";
                break;
            }
        }
    }
}
