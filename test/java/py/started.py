# started.py - says so on stderr, then sleeps: lets a test know that an
# execution is running (for budgets) before it ends by its timeout.
import sys, time
sys.stderr.write("started\n")
sys.stderr.flush()
time.sleep(3600)
