# sleeper.py - sleeps forever without using CPU: the wall clock stops it.
import time
time.sleep(3600)
