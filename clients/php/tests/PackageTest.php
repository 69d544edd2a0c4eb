<?php

declare(strict_types=1);

namespace Nkra\Tests;

use PHPUnit\Framework\TestCase;

/** The Composer package layout: a valid composer.json whose PSR-4 map loads every class in src/. */
final class PackageTest extends TestCase
{
    public function testComposerJsonDeclaresPhp81AndPsr4ForEveryClassInSrc(): void
    {
        $composer = json_decode((string) file_get_contents(__DIR__ . '/../composer.json'), true, 512, JSON_THROW_ON_ERROR);
        self::assertSame('nkra/client', $composer['name']);
        self::assertSame('>=8.1', $composer['require']['php']);
        self::assertArrayHasKey('psr/http-client', $composer['require']);
        self::assertSame(['Nkra\\' => 'src/'], $composer['autoload']['psr-4']);
        $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator(__DIR__ . '/../src', \FilesystemIterator::SKIP_DOTS));
        $count = 0;
        foreach ($files as $file) {
            $relative = substr($file->getPathname(), strlen(__DIR__ . '/../src/'));
            $class = 'Nkra\\' . str_replace(['/', '.php'], ['\\', ''], $relative);
            if ($class === 'Nkra\\Laravel\\NkraServiceProvider') {
                continue; // declared only where Laravel is installed (LaravelTest)
            }
            self::assertTrue(class_exists($class) || interface_exists($class), "{$class} does not autoload from {$relative}");
            $count++;
        }
        self::assertGreaterThanOrEqual(13, $count);
    }
}
