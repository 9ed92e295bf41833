// Decodes a PTX opcode ("cp.async.cg.shared.global.L2::128B") into an Instruction's fields,
// and checks that its operands have the shape the instruction needs. What the CPU backend
// does not know is refused here, with a sentence that names it.
#pragma once

#include <string>

#include "program.h"

namespace ptx {

Type decode_type(const std::string& suffix);  // "u32" -> Type::u32; Type::none if unknown
bool decode_instruction(Instruction& in, std::string& why);
bool check_operands(const Instruction& in, std::string& why);
// Registers must be as wide as the instruction's types say, as ptxas requires ("Arguments
// mismatch"): a 64-bit "l" operand where .u32 is asked for is refused here too.
bool check_widths(const Instruction& in, const std::vector<Register>& registers, std::string& why);

}  // namespace ptx
