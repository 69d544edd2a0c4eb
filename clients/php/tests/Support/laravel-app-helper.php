<?php

declare(strict_types=1);

// Laravel's global app() helper comes with the framework's Foundation component, which the Debian
// packages the suite uses (notifications, events, config) do not include; RoutesNotifications::notify()
// calls it. The same behaviour: the container, or a binding resolved from it.
if (!function_exists('app')) {
    function app(?string $abstract = null, array $parameters = []): mixed
    {
        $container = \Illuminate\Container\Container::getInstance();
        return $abstract === null ? $container : $container->make($abstract, $parameters);
    }
}
