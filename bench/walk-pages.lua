-- wrk script: GET the scenario's path page by page, 1 to BENCH_PAGES and round again, so an
-- export is measured over the whole result (deep pages included), not one cached page.
local pages = tonumber(os.getenv("BENCH_PAGES"))
local page = 0
request = function()
  page = page % pages + 1
  return wrk.format(nil, wrk.path .. "&page=" .. page)
end
