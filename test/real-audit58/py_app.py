# The Python SDK client (mcp 2.3.0) behind audit 56's small application (test/real-audit56/py_app.py), for
# test/real-audit58/record.mjs: the same application, with the client's own DEBUG log written to LOG_FILE as
# logging.basicConfig writes it, and with asctime to LOG_FILE's -timed.log (a log that can be joined by time).
# Usage: /work/py-venv/bin/python test/real-audit58/py_app.py URL PLAN_JSON LOG_FILE
import logging
import runpy
import sys
from pathlib import Path

logging.basicConfig(level=logging.DEBUG, filename=sys.argv[3])
# the same records with their time (asctime, local: UTC here)
timed = logging.FileHandler(sys.argv[3].replace(".log", "-timed.log"))
timed.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
logging.getLogger().addHandler(timed)

runpy.run_path(str(Path(__file__).resolve().parent.parent / "real-audit56" / "py_app.py"), run_name="__main__")
