-- The capacity mix of bench/load_bench.ts (`act` and `SEARCHES`), for wrk: the same requests in
-- the same shares, each with the session of one of the signed-in staff at random. wrk spends a
-- fraction of the CPU a request that the bench's own client (Deno's fetch) does, so on a machine
-- the app shares with its database and its generator, more of it goes to the app.
-- Environment: WRK_COOKIES (a file, one Cookie header a line), WRK_ORIGIN, WRK_ORDERS.
local cookies = {}
for line in io.lines(os.getenv("WRK_COOKIES")) do cookies[#cookies + 1] = line end
local origin = os.getenv("WRK_ORIGIN")
local orders = tonumber(os.getenv("WRK_ORDERS"))
local letters = "abcdefghiklmnoprstuvw"
local three = { "sto", "wal", "ren", "mar" }
math.randomseed(os.time())

local function headers(json)
  local h = { ["Cookie"] = cookies[math.random(#cookies)], ["Origin"] = origin,
    ["Accept"] = "application/json" }
  if json then h["Content-Type"] = "application/json" end
  return h
end

local function list(terms)
  return wrk.format("POST", "/api/order-tracking/list", headers(true),
    '{"PageSize":50,"PageIndex":1,"AndOrParam":true' .. terms .. '}')
end

local searches = {
  function() return list("") end,
  function()
    local i = math.random(#letters)
    return list(',"ShipToNameParam":"' .. letters:sub(i, i) .. '"')
  end,
  function() return list(',"PoNumberParam":"' .. math.random(10, 99) .. '"') end,
  function() return list(',"ShipToNameParam":"' .. three[math.random(#three)] .. '"') end,
  function() return list(',"SupplierNameParam":"Supplier"') end,
  function() return list(string.format(',"PoNumberParam":"PO-%07d"', math.random(orders))) end,
  function()
    return wrk.format("POST", "/api/order-tracking/list", headers(true),
      '{"PageSize":50,"PageIndex":200,"AndOrParam":true,"SortParams":{"customerName":true}}')
  end,
}

request = function()
  local roll = math.random()
  if roll < 0.55 then return searches[math.random(#searches)]() end
  if roll < 0.7 then
    return wrk.format("GET", "/api/order-tracking/order/" .. math.random(orders), headers(false))
  end
  if roll < 0.78 then
    return wrk.format("POST", "/api/order-tracking/notes", headers(true),
      string.format('{"orderId":%d,"note":"called the supplier at %d"}', math.random(orders),
        os.time()))
  end
  if roll < 0.9 then
    return wrk.format("GET", "/api/order-tracking/list/update-stats", headers(false))
  end
  if roll < 0.96 then return wrk.format("GET", "/api/import-runs?limit=50", headers(false)) end
  return wrk.format("GET", "/api/order-tracking-sources/active", headers(false))
end

-- Answers that were not 2xx, by status, summed over wrk's threads and printed at the end as
-- "status 500: 3" lines for bench/load_bench.ts.
local threads = {}
setup = function(thread) threads[#threads + 1] = thread end
init = function() statuses = {} end
response = function(status)
  if status < 200 or status > 299 then statuses[status] = (statuses[status] or 0) + 1 end
end
done = function()
  local sums = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do sums[status] = (sums[status] or 0) + n end
  end
  for status, n in pairs(sums) do io.write(string.format("status %d: %d\n", status, n)) end
end
