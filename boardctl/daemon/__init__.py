"""The daemon: its loop (``loop``), its wiring from the configuration
(``wiring``), and the parts the loop holds: the engine session, the clock,
what the screen shows, systemd's watchdog and the headless simulator."""
