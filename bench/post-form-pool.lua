-- wrk script: POST a respondent page's form, each request as another respondent. BENCH_FORMS names a
-- file written by the scenario's prepare step: one line per respondent, "<cookie>\t<form body>"
-- (each a session that drew the page beforehand, so its CSRF token and shown stamp are its own).
-- Where the previous wrk run stopped is kept beside it (every 100 requests), so the run after the
-- warm-up starts 100 past it: it posts only for respondents not used yet.
local file = os.getenv("BENCH_FORMS")
-- The floor's runs (BENCH_FORMS_READ_ONLY) send the same requests and leave the position alone.
local keep = os.getenv("BENCH_FORMS_READ_ONLY") ~= "1"
local forms = {}
for line in io.lines(file) do
  local cookie, body = line:match("^([^\t]*)\t(.*)$")
  forms[#forms + 1] = { cookie = cookie, body = body }
end
local at = 0
local saved = io.open(file .. ".at", "r")
if saved then
  at = (tonumber(saved:read("*a")) or 0) + 100
  saved:close()
end
request = function()
  at = at % #forms + 1
  if keep and at % 100 == 0 then
    local f = io.open(file .. ".at", "w")
    f:write(tostring(at))
    f:close()
  end
  local f = forms[at]
  return wrk.format("POST", nil, {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = f.cookie,
  }, f.body)
end
