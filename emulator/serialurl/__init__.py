"""pyserial URL handlers for the emulated Pico (``pico://127.0.0.1:PORT``)."""
