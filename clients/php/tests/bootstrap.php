<?php

declare(strict_types=1);

// Composer's autoloader when the package was installed with Composer; otherwise a PSR-4 loader for
// src/ and tests/ plus, from Debian's packages in /usr/share/php as .ci/run installs them, the PSR
// interfaces and Guzzle (the suite's PSR-18 client: php-psr-http-*, php-guzzlehttp-guzzle) and
// Laravel's notifications, events and config components (php-illuminate-notifications, -events,
// -config), which LaravelTest runs the service provider and channel in.
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
    if (!in_array('/usr/share/php', explode(PATH_SEPARATOR, get_include_path()), true)) {
        set_include_path(get_include_path() . PATH_SEPARATOR . '/usr/share/php'); // Debian's autoload files require their dependencies by relative path
    }
    $debianPackages = ['Psr/Http/Message/autoload.php', 'Psr/Http/Client/autoload.php', 'GuzzleHttp/autoload.php'];
    if (!getenv('NKRA_TEST_WITHOUT_LARAVEL')) { // set to run LaravelTest with its stand-ins, as where Laravel is absent
        array_push($debianPackages, 'Illuminate/Notifications/autoload.php', 'Illuminate/Events/autoload.php', 'Illuminate/Config/autoload.php');
    }
    foreach ($debianPackages as $debian) {
        foreach (explode(PATH_SEPARATOR, get_include_path()) as $root) {
            if (is_file("{$root}/{$debian}")) {
                require_once "{$root}/{$debian}";
                break;
            }
        }
    }
}
