# loop.py - never ends: stopped by the wall-clock limit (timeout).
while True:
    pass
