// Handle conversions between C and Fortran (MPI-4.0 19.3.4): Strata's handles are ints in both languages, so each
// conversion is the identity. Like MPICH and Open MPI, they check nothing (the standard defines no errors for them).
#include "api/pmpi.hpp"

STRATA_PMPI(Comm_c2f)
extern "C" MPI_Fint PMPI_Comm_c2f(MPI_Comm comm) { return comm; }

STRATA_PMPI(Comm_f2c)
extern "C" MPI_Comm PMPI_Comm_f2c(MPI_Fint comm) { return comm; }

STRATA_PMPI(Group_c2f)
extern "C" MPI_Fint PMPI_Group_c2f(MPI_Group group) { return group; }

STRATA_PMPI(Group_f2c)
extern "C" MPI_Group PMPI_Group_f2c(MPI_Fint group) { return group; }

STRATA_PMPI(Type_c2f)
extern "C" MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype) { return datatype; }

STRATA_PMPI(Type_f2c)
extern "C" MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype) { return datatype; }

STRATA_PMPI(Op_c2f)
extern "C" MPI_Fint PMPI_Op_c2f(MPI_Op op) { return op; }

STRATA_PMPI(Op_f2c)
extern "C" MPI_Op PMPI_Op_f2c(MPI_Fint op) { return op; }

STRATA_PMPI(Errhandler_c2f)
extern "C" MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler) { return errhandler; }

STRATA_PMPI(Errhandler_f2c)
extern "C" MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler) { return errhandler; }

STRATA_PMPI(Request_c2f)
extern "C" MPI_Fint PMPI_Request_c2f(MPI_Request request) { return request; }

STRATA_PMPI(Request_f2c)
extern "C" MPI_Request PMPI_Request_f2c(MPI_Fint request) { return request; }

STRATA_PMPI(Info_c2f)
extern "C" MPI_Fint PMPI_Info_c2f(MPI_Info info) { return info; }

STRATA_PMPI(Info_f2c)
extern "C" MPI_Info PMPI_Info_f2c(MPI_Fint info) { return info; }

STRATA_PMPI(Message_c2f)
extern "C" MPI_Fint PMPI_Message_c2f(MPI_Message message) { return message; }

STRATA_PMPI(Message_f2c)
extern "C" MPI_Message PMPI_Message_f2c(MPI_Fint message) { return message; }

STRATA_PMPI(Win_c2f)
extern "C" MPI_Fint PMPI_Win_c2f(MPI_Win win) { return win; }

STRATA_PMPI(Win_f2c)
extern "C" MPI_Win PMPI_Win_f2c(MPI_Fint win) { return win; }

STRATA_PMPI(Session_c2f)
extern "C" MPI_Fint PMPI_Session_c2f(MPI_Session session) { return session; }

STRATA_PMPI(Session_f2c)
extern "C" MPI_Session PMPI_Session_f2c(MPI_Fint session) { return session; }
