// The program_link target's only source (ProgramExport.cmake): the target exists so that CMake
// says, as data, what a program must be linked with; nothing here is linked into a program.
int main() { return 0; }
