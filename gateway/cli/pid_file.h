// The pid file of `lqe serve --pid-file F`, read by `lqe reload --pid-file F`.
#pragma once

#include <sys/types.h>

#include <string>

namespace lqe::cli {

// Writes this process's id to `path` (through a temporary file and a rename). Refuses when the
// file names another running `lqe serve`; a stale file is replaced. Returns an error or "".
std::string WritePidFile(const std::string& path);
// Removes `path` if it still holds this process's id.
void RemovePidFile(const std::string& path);
// The id of the running `lqe serve` that `path` names; otherwise an error that says why (no
// file, not a process id, no such process, a process that is not lqe serve).
pid_t ReadServePid(const std::string& path, std::string* error);

}  // namespace lqe::cli
