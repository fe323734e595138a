-- wrk script: POST the JSON body kept in the file named by BENCH_BODY (written by a scenario's
-- prepare step) to the scenario's path.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open(os.getenv("BENCH_BODY"), "r"))
wrk.body = f:read("*a")
f:close()
