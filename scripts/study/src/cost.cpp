#include "neaccel/study/cost.hpp"

#include "neaccel/study/area.hpp"

namespace neaccel::study {

nlohmann::json CostEstimate::to_json() const {
  return {{"area_cells", area_cells}, {"unit_cells", unit_cells}, {"register_cells", register_cells},
          {"routing_cells", routing_cells}, {"control_cells", control_cells}, {"period_ns", period_ns},
          {"fmax_mhz", fmax_mhz()}, {"critical", critical}};
}

// Placeholder until the calibrated models land (issue 14): today's area model and a nominal 10 ns clock.
CostEstimate estimate_cost(const CostPoint& p) {
  const DatapathArea a = datapath_area(p.mul, p.lat_mul, p.add, p.lat_add, p.pipelined, p.registers);
  CostEstimate e;
  e.unit_cells = a.units;
  e.register_cells = a.registers;
  e.routing_cells = a.routing;
  e.control_cells = a.control;
  e.area_cells = a.total();
  e.period_ns = 10.0;
  e.critical = "nominal (uncalibrated)";
  return e;
}

}  // namespace neaccel::study
