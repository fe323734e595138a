-- wrk script: PATCH the JSON body kept in the file named by BENCH_PATCH_BODY (written by a
-- scenario's prepare step) to the scenario's path.
wrk.method = "PATCH"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open(os.getenv("BENCH_PATCH_BODY"), "r"))
wrk.body = f:read("*a")
f:close()
