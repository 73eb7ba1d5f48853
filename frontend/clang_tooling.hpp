// Clang's driver and tooling headers, for the few files that run Clang rather than read its AST.
// Like clang_compat.hpp (which it includes first), it comes before anything that pulls in GiNaC/CLN.
#pragma once

#include "clang_compat.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
