/* Strata's public C API: the MPI-4.0 subset Strata implements, plus MPI-4.1 items and MPIX_ extensions.
 *
 * Handles are ints, as in MPICH: handle = (kind << 26) | index. Index 0 is the kind's null handle, so a handle of
 * the wrong kind (a datatype passed as a communicator) is detected, and constants are compile-time integers.
 * Every MPI_ function has a PMPI_ twin; MPI_ names are weak aliases of the PMPI_ ones (the profiling interface).
 * Only implemented calls are declared here: a missing call fails at link time, never silently at run time. */
#ifndef STRATA_MPI_H
#define STRATA_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 4
#define MPI_SUBVERSION 0
#define STRATA_VERSION "0.1.0"
#define STRATA 1

/* ---- Handle types ------------------------------------------------------------------------------------------ */
typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Errhandler;
typedef int MPI_Request;
typedef int MPI_Info;
typedef int MPI_Message;
typedef int MPI_Win;
typedef int MPI_Session;
typedef int MPI_Fint;

typedef intptr_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;

#define STRATA_HANDLE(kind, index) ((int)(((kind) << 26) | (index)))
#define STRATA_KIND_COMM 1
#define STRATA_KIND_GROUP 2
#define STRATA_KIND_DATATYPE 3
#define STRATA_KIND_OP 4
#define STRATA_KIND_ERRHANDLER 5
#define STRATA_KIND_REQUEST 6
#define STRATA_KIND_INFO 7
#define STRATA_KIND_MESSAGE 8
#define STRATA_KIND_WIN 9
#define STRATA_KIND_KEYVAL 10
#define STRATA_KIND_SESSION 11

#define MPI_COMM_NULL STRATA_HANDLE(STRATA_KIND_COMM, 0)
#define MPI_COMM_WORLD STRATA_HANDLE(STRATA_KIND_COMM, 1)
#define MPI_COMM_SELF STRATA_HANDLE(STRATA_KIND_COMM, 2)
#define MPI_GROUP_NULL STRATA_HANDLE(STRATA_KIND_GROUP, 0)
#define MPI_GROUP_EMPTY STRATA_HANDLE(STRATA_KIND_GROUP, 1)
#define MPI_DATATYPE_NULL STRATA_HANDLE(STRATA_KIND_DATATYPE, 0)
#define MPI_OP_NULL STRATA_HANDLE(STRATA_KIND_OP, 0)
#define MPI_ERRHANDLER_NULL STRATA_HANDLE(STRATA_KIND_ERRHANDLER, 0)
#define MPI_ERRORS_ARE_FATAL STRATA_HANDLE(STRATA_KIND_ERRHANDLER, 1)
#define MPI_ERRORS_RETURN STRATA_HANDLE(STRATA_KIND_ERRHANDLER, 2)
#define MPI_ERRORS_ABORT STRATA_HANDLE(STRATA_KIND_ERRHANDLER, 3)
#define MPI_REQUEST_NULL STRATA_HANDLE(STRATA_KIND_REQUEST, 0)
#define MPI_INFO_NULL STRATA_HANDLE(STRATA_KIND_INFO, 0)
#define MPI_INFO_ENV STRATA_HANDLE(STRATA_KIND_INFO, 1)
#define MPI_MESSAGE_NULL STRATA_HANDLE(STRATA_KIND_MESSAGE, 0)
#define MPI_MESSAGE_NO_PROC STRATA_HANDLE(STRATA_KIND_MESSAGE, 1)
#define MPI_WIN_NULL STRATA_HANDLE(STRATA_KIND_WIN, 0)
#define MPI_SESSION_NULL STRATA_HANDLE(STRATA_KIND_SESSION, 0)

/* Attribute keys are not handles in the standard, but Strata encodes them alike so that a bad key is detected. */
#define MPI_TAG_UB STRATA_HANDLE(STRATA_KIND_KEYVAL, 1)
#define MPI_HOST STRATA_HANDLE(STRATA_KIND_KEYVAL, 2)
#define MPI_IO STRATA_HANDLE(STRATA_KIND_KEYVAL, 3)
#define MPI_WTIME_IS_GLOBAL STRATA_HANDLE(STRATA_KIND_KEYVAL, 4)
#define MPI_UNIVERSE_SIZE STRATA_HANDLE(STRATA_KIND_KEYVAL, 5)
#define MPI_APPNUM STRATA_HANDLE(STRATA_KIND_KEYVAL, 6)
#define MPI_LASTUSEDCODE STRATA_HANDLE(STRATA_KIND_KEYVAL, 7)
/* Window attributes (MPI_Win_get_attr; MPI-4.0 12.2.6), after the communicator ones. */
#define MPI_WIN_BASE STRATA_HANDLE(STRATA_KIND_KEYVAL, 8)
#define MPI_WIN_SIZE STRATA_HANDLE(STRATA_KIND_KEYVAL, 9)
#define MPI_WIN_DISP_UNIT STRATA_HANDLE(STRATA_KIND_KEYVAL, 10)
#define MPI_WIN_CREATE_FLAVOR STRATA_HANDLE(STRATA_KIND_KEYVAL, 11)
#define MPI_WIN_MODEL STRATA_HANDLE(STRATA_KIND_KEYVAL, 12)

/* ---- Predefined datatypes: the index is datatype/predefined.hpp's PredefinedType (checked at compile time). */
#define STRATA_DT(i) STRATA_HANDLE(STRATA_KIND_DATATYPE, i)
#define MPI_CHAR STRATA_DT(1)
#define MPI_SIGNED_CHAR STRATA_DT(2)
#define MPI_UNSIGNED_CHAR STRATA_DT(3)
#define MPI_BYTE STRATA_DT(4)
#define MPI_WCHAR STRATA_DT(5)
#define MPI_SHORT STRATA_DT(6)
#define MPI_UNSIGNED_SHORT STRATA_DT(7)
#define MPI_INT STRATA_DT(8)
#define MPI_UNSIGNED STRATA_DT(9)
#define MPI_LONG STRATA_DT(10)
#define MPI_UNSIGNED_LONG STRATA_DT(11)
#define MPI_LONG_LONG_INT STRATA_DT(12)
#define MPI_LONG_LONG MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG STRATA_DT(13)
#define MPI_FLOAT STRATA_DT(14)
#define MPI_DOUBLE STRATA_DT(15)
#define MPI_LONG_DOUBLE STRATA_DT(16)
#define MPI_C_BOOL STRATA_DT(17)
#define MPI_INT8_T STRATA_DT(18)
#define MPI_INT16_T STRATA_DT(19)
#define MPI_INT32_T STRATA_DT(20)
#define MPI_INT64_T STRATA_DT(21)
#define MPI_UINT8_T STRATA_DT(22)
#define MPI_UINT16_T STRATA_DT(23)
#define MPI_UINT32_T STRATA_DT(24)
#define MPI_UINT64_T STRATA_DT(25)
#define MPI_C_FLOAT_COMPLEX STRATA_DT(26)
#define MPI_C_COMPLEX MPI_C_FLOAT_COMPLEX
#define MPI_C_DOUBLE_COMPLEX STRATA_DT(27)
#define MPI_C_LONG_DOUBLE_COMPLEX STRATA_DT(28)
#define MPI_AINT STRATA_DT(29)
#define MPI_OFFSET STRATA_DT(30)
#define MPI_COUNT STRATA_DT(31)
#define MPI_PACKED STRATA_DT(32)
#define MPI_FLOAT_INT STRATA_DT(33)
#define MPI_DOUBLE_INT STRATA_DT(34)
#define MPI_LONG_INT STRATA_DT(35)
#define MPI_2INT STRATA_DT(36)
#define MPI_SHORT_INT STRATA_DT(37)
#define MPI_LONG_DOUBLE_INT STRATA_DT(38)
#define MPI_CXX_BOOL STRATA_DT(39)
#define MPI_CXX_FLOAT_COMPLEX STRATA_DT(40)
#define MPI_CXX_DOUBLE_COMPLEX STRATA_DT(41)
#define MPI_CXX_LONG_DOUBLE_COMPLEX STRATA_DT(42)
/* Fortran's named types, for C code that handles Fortran data (MPI-4.0 A.1.1, 19.3.6); gfortran's default kinds:
 * INTEGER, REAL and LOGICAL of 4 bytes. The optional kinds C has no type for are MPI_DATATYPE_NULL. */
#define MPI_CHARACTER STRATA_DT(43)
#define MPI_LOGICAL STRATA_DT(44)
#define MPI_INTEGER STRATA_DT(45)
#define MPI_REAL STRATA_DT(46)
#define MPI_DOUBLE_PRECISION STRATA_DT(47)
#define MPI_COMPLEX STRATA_DT(48)
#define MPI_DOUBLE_COMPLEX STRATA_DT(49)
#define MPI_2INTEGER STRATA_DT(50)
#define MPI_2REAL STRATA_DT(51)
#define MPI_2DOUBLE_PRECISION STRATA_DT(52)
#define MPI_INTEGER1 STRATA_DT(53)
#define MPI_INTEGER2 STRATA_DT(54)
#define MPI_INTEGER4 STRATA_DT(55)
#define MPI_INTEGER8 STRATA_DT(56)
#define MPI_REAL4 STRATA_DT(57)
#define MPI_REAL8 STRATA_DT(58)
#define MPI_COMPLEX8 STRATA_DT(59)
#define MPI_COMPLEX16 STRATA_DT(60)
#define MPI_INTEGER16 MPI_DATATYPE_NULL
#define MPI_REAL2 MPI_DATATYPE_NULL
#define MPI_REAL16 MPI_DATATYPE_NULL
#define MPI_COMPLEX4 MPI_DATATYPE_NULL
#define MPI_COMPLEX32 MPI_DATATYPE_NULL
/* MPI_Type_match_size's classes (MPI-4.0 19.3.5). */
#define MPI_TYPECLASS_INTEGER 1
#define MPI_TYPECLASS_REAL 2
#define MPI_TYPECLASS_COMPLEX 3

/* Datatype constructors, as MPI_Type_get_envelope reports them; MPI_ORDER_* for MPI_Type_create_subarray. */
#define MPI_COMBINER_NAMED 0
#define MPI_COMBINER_DUP 1
#define MPI_COMBINER_CONTIGUOUS 2
#define MPI_COMBINER_VECTOR 3
#define MPI_COMBINER_HVECTOR 4
#define MPI_COMBINER_INDEXED 5
#define MPI_COMBINER_HINDEXED 6
#define MPI_COMBINER_INDEXED_BLOCK 7
#define MPI_COMBINER_HINDEXED_BLOCK 8
#define MPI_COMBINER_STRUCT 9
#define MPI_COMBINER_SUBARRAY 10
#define MPI_COMBINER_RESIZED 11
#define MPI_COMBINER_DARRAY 12
#define MPI_COMBINER_F90_REAL 13
#define MPI_COMBINER_F90_COMPLEX 14
#define MPI_COMBINER_F90_INTEGER 15
#define MPI_ORDER_C 56
#define MPI_ORDER_FORTRAN 57
#define MPI_DISTRIBUTE_BLOCK 121
#define MPI_DISTRIBUTE_CYCLIC 122
#define MPI_DISTRIBUTE_NONE 123
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* ---- Predefined reduction operators ------------------------------------------------------------------------ */
#define MPI_MAX STRATA_HANDLE(STRATA_KIND_OP, 1)
#define MPI_MIN STRATA_HANDLE(STRATA_KIND_OP, 2)
#define MPI_SUM STRATA_HANDLE(STRATA_KIND_OP, 3)
#define MPI_PROD STRATA_HANDLE(STRATA_KIND_OP, 4)
#define MPI_LAND STRATA_HANDLE(STRATA_KIND_OP, 5)
#define MPI_BAND STRATA_HANDLE(STRATA_KIND_OP, 6)
#define MPI_LOR STRATA_HANDLE(STRATA_KIND_OP, 7)
#define MPI_BOR STRATA_HANDLE(STRATA_KIND_OP, 8)
#define MPI_LXOR STRATA_HANDLE(STRATA_KIND_OP, 9)
#define MPI_BXOR STRATA_HANDLE(STRATA_KIND_OP, 10)
#define MPI_MAXLOC STRATA_HANDLE(STRATA_KIND_OP, 11)
#define MPI_MINLOC STRATA_HANDLE(STRATA_KIND_OP, 12)
#define MPI_REPLACE STRATA_HANDLE(STRATA_KIND_OP, 13)
#define MPI_NO_OP STRATA_HANDLE(STRATA_KIND_OP, 14)

/* A user reduction (MPI_Op_create): inoutvec[i] = invec[i] op inoutvec[i] for *len elements of *datatype. */
typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);

/* ---- Constants --------------------------------------------------------------------------------------------- */
#define MPI_PROC_NULL (-1)
#define MPI_ANY_SOURCE (-2)
#define MPI_ROOT (-3)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)
#define MPI_KEYVAL_INVALID 0

#define MPI_BOTTOM ((void *)0)
#define MPI_IN_PLACE ((void *)-1)

#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 512
#define MPI_MAX_LIBRARY_VERSION_STRING 8192
#define MPI_MAX_OBJECT_NAME 128
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024

/* Results of MPI_Comm_compare and MPI_Group_compare */
#define MPI_IDENT 0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR 2
#define MPI_UNEQUAL 3

/* Split types of MPI_Comm_split_type (MPI-4.0 7.4.2; RESOURCE_GUIDED is MPI-4.1) */
#define MPI_COMM_TYPE_SHARED 1
#define MPI_COMM_TYPE_HW_UNGUIDED 2
#define MPI_COMM_TYPE_HW_GUIDED 3
#define MPI_COMM_TYPE_RESOURCE_GUIDED 4

/* One-sided communication (MPI-4.0 chapter 12): assertions (bits), lock types, window flavors and models */
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384
#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2

#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* ---- Error classes (MPI-4.0 section 9.4). Error codes returned by calls may carry a detailed message:
 *      MPI_Error_class maps them to these classes, MPI_Error_string gives the message. ------------------------ */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_PENDING 18
#define MPI_ERR_IN_STATUS 19
#define MPI_ERR_ACCESS 20
#define MPI_ERR_AMODE 21
#define MPI_ERR_ASSERT 22
#define MPI_ERR_BAD_FILE 23
#define MPI_ERR_BASE 24
#define MPI_ERR_CONVERSION 25
#define MPI_ERR_DISP 26
#define MPI_ERR_DUP_DATAREP 27
#define MPI_ERR_FILE_EXISTS 28
#define MPI_ERR_FILE_IN_USE 29
#define MPI_ERR_FILE 30
#define MPI_ERR_INFO_KEY 31
#define MPI_ERR_INFO_NOKEY 32
#define MPI_ERR_INFO_VALUE 33
#define MPI_ERR_INFO 34
#define MPI_ERR_IO 35
#define MPI_ERR_KEYVAL 36
#define MPI_ERR_LOCKTYPE 37
#define MPI_ERR_NAME 38
#define MPI_ERR_NO_MEM 39
#define MPI_ERR_NOT_SAME 40
#define MPI_ERR_NO_SPACE 41
#define MPI_ERR_NO_SUCH_FILE 42
#define MPI_ERR_PORT 43
#define MPI_ERR_QUOTA 44
#define MPI_ERR_READ_ONLY 45
#define MPI_ERR_RMA_CONFLICT 46
#define MPI_ERR_RMA_SYNC 47
#define MPI_ERR_SERVICE 48
#define MPI_ERR_SIZE 49
#define MPI_ERR_SPAWN 50
#define MPI_ERR_UNSUPPORTED_DATAREP 51
#define MPI_ERR_UNSUPPORTED_OPERATION 52
#define MPI_ERR_WIN 53
#define MPI_ERR_RMA_RANGE 54
#define MPI_ERR_RMA_ATTACH 55
#define MPI_ERR_RMA_SHARED 56
#define MPI_ERR_RMA_FLAVOR 57
#define MPI_ERR_SESSION 58
#define MPI_ERR_PROC_ABORTED 59
#define MPI_ERR_VALUE_TOO_LARGE 60
#define MPI_ERR_LASTCODE 0x3fffffff

/* ---- Status ------------------------------------------------------------------------------------------------ */
typedef struct MPI_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  int strata_cancelled; /* private */
  MPI_Count strata_bytes; /* private: bytes received */
} MPI_Status;

#define MPI_STATUS_IGNORE ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)

typedef void MPI_Comm_errhandler_function(MPI_Comm *, int *, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn; /* the pre-2.2 name */
typedef void MPI_Win_errhandler_function(MPI_Win *, int *, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn; /* the pre-2.2 name */
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val, void *extra_state);

/* ---- The calls. Each appears twice: MPI_ and PMPI_. ------------------------------------------------------- */
#define STRATA_DECLARE(ret, name, args) ret MPI_##name args; ret PMPI_##name args;

/* Environment (runtime/) */
STRATA_DECLARE(int, Init, (int *argc, char ***argv))
STRATA_DECLARE(int, Init_thread, (int *argc, char ***argv, int required, int *provided))
STRATA_DECLARE(int, Finalize, (void))
STRATA_DECLARE(int, Initialized, (int *flag))
STRATA_DECLARE(int, Finalized, (int *flag))
STRATA_DECLARE(int, Abort, (MPI_Comm comm, int errorcode))
STRATA_DECLARE(double, Wtime, (void))
STRATA_DECLARE(double, Wtick, (void))
STRATA_DECLARE(int, Get_version, (int *version, int *subversion))
STRATA_DECLARE(int, Get_library_version, (char *version, int *resultlen))
STRATA_DECLARE(int, Get_processor_name, (char *name, int *resultlen))
/* Profiling control (MPI-4.0 15.2.4): for a tool that wraps it; the library itself does nothing with the level. */
STRATA_DECLARE(int, Pcontrol, (const int level, ...))
STRATA_DECLARE(int, Query_thread, (int *provided))
STRATA_DECLARE(int, Is_thread_main, (int *flag))

/* Errors */
STRATA_DECLARE(int, Error_string, (int errorcode, char *string, int *resultlen))
STRATA_DECLARE(int, Error_class, (int errorcode, int *errorclass))
STRATA_DECLARE(int, Comm_set_errhandler, (MPI_Comm comm, MPI_Errhandler errhandler))
STRATA_DECLARE(int, Comm_get_errhandler, (MPI_Comm comm, MPI_Errhandler *errhandler))

STRATA_DECLARE(int, Comm_create_errhandler,
               (MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler))
STRATA_DECLARE(int, Comm_call_errhandler, (MPI_Comm comm, int errorcode))
STRATA_DECLARE(int, Errhandler_free, (MPI_Errhandler *errhandler))
STRATA_DECLARE(int, Add_error_class, (int *errorclass))
STRATA_DECLARE(int, Add_error_code, (int errorclass, int *errorcode))
STRATA_DECLARE(int, Add_error_string, (int errorcode, const char *string))

/* Communicators */
STRATA_DECLARE(int, Comm_size, (MPI_Comm comm, int *size))
STRATA_DECLARE(int, Comm_rank, (MPI_Comm comm, int *rank))
STRATA_DECLARE(int, Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
STRATA_DECLARE(int, Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
STRATA_DECLARE(int, Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
STRATA_DECLARE(int, Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request))
STRATA_DECLARE(int, Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
STRATA_DECLARE(int, Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm))
/* MPI-4.1: the hardware levels Strata supports for the caller, by canonical name (strata://Rack, strata://Switch
 * when the job has network levels, then hwloc://Machine ... hwloc://PU), each "true" when the caller is confined to
 * one instance of it, else "false". A new object; free it. */
STRATA_DECLARE(int, Get_hw_resource_info, (MPI_Info *hw_info))
STRATA_DECLARE(int, Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
STRATA_DECLARE(int, Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
STRATA_DECLARE(int, Comm_free, (MPI_Comm *comm))
/* MPI-4.0 11.10.4: collective; every process waits until the others call it too, then the communicator is freed. */
STRATA_DECLARE(int, Comm_disconnect, (MPI_Comm *comm))
STRATA_DECLARE(int, Comm_get_parent, (MPI_Comm *parent))
STRATA_DECLARE(int, Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
STRATA_DECLARE(int, Comm_set_name, (MPI_Comm comm, const char *comm_name))
STRATA_DECLARE(int, Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen))
STRATA_DECLARE(int, Comm_set_info, (MPI_Comm comm, MPI_Info info))
STRATA_DECLARE(int, Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
STRATA_DECLARE(int, Comm_test_inter, (MPI_Comm comm, int *flag))
STRATA_DECLARE(int, Comm_remote_size, (MPI_Comm comm, int *size))
STRATA_DECLARE(int, Comm_remote_group, (MPI_Comm comm, MPI_Group *group))
STRATA_DECLARE(int, Intercomm_create, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                                       int tag, MPI_Comm *newintercomm))
/* The groups' members call it, each group naming the other; errors in the arguments go to MPI_COMM_SELF's handler. */
STRATA_DECLARE(int, Intercomm_create_from_groups,
               (MPI_Group local_group, int local_leader, MPI_Group remote_group, int remote_leader,
                const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newintercomm))
STRATA_DECLARE(int, Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))
STRATA_DECLARE(int, Comm_group, (MPI_Comm comm, MPI_Group *group))

/* Attributes */
STRATA_DECLARE(int, Comm_create_keyval,
               (MPI_Comm_copy_attr_function *comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                int *comm_keyval, void *extra_state))
STRATA_DECLARE(int, Comm_free_keyval, (int *comm_keyval))
STRATA_DECLARE(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
STRATA_DECLARE(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
STRATA_DECLARE(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval))
/* The predefined callbacks (MPI-4.0 7.7.2) are real functions, so a program may also call them. */
STRATA_DECLARE(int, COMM_NULL_COPY_FN, (MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag))
STRATA_DECLARE(int, COMM_DUP_FN, (MPI_Comm oldcomm, int comm_keyval, void *extra_state, void *attribute_val_in,
                                  void *attribute_val_out, int *flag))
STRATA_DECLARE(int, COMM_NULL_DELETE_FN, (MPI_Comm comm, int comm_keyval, void *attribute_val, void *extra_state))
/* The same under their MPI-1 names, deprecated since MPI-2.0 and still in MPI-4.0 (section 19.1). */
typedef MPI_Comm_copy_attr_function MPI_Copy_function;
typedef MPI_Comm_delete_attr_function MPI_Delete_function;
STRATA_DECLARE(int, Keyval_create,
               (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state))
STRATA_DECLARE(int, Keyval_free, (int *keyval))
STRATA_DECLARE(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
STRATA_DECLARE(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
STRATA_DECLARE(int, Attr_delete, (MPI_Comm comm, int keyval))
STRATA_DECLARE(int, NULL_COPY_FN, (MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                                   void *attribute_val_out, int *flag))
STRATA_DECLARE(int, DUP_FN, (MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                             void *attribute_val_out, int *flag))
STRATA_DECLARE(int, NULL_DELETE_FN, (MPI_Comm comm, int keyval, void *attribute_val, void *extra_state))
/* Attributes on datatypes (MPI-4.0 7.7.4) */
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                          void *extra_state);
STRATA_DECLARE(int, Type_create_keyval,
               (MPI_Type_copy_attr_function *type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn,
                int *type_keyval, void *extra_state))
STRATA_DECLARE(int, Type_free_keyval, (int *type_keyval))
STRATA_DECLARE(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
STRATA_DECLARE(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag))
STRATA_DECLARE(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
STRATA_DECLARE(int, TYPE_NULL_COPY_FN, (MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag))
STRATA_DECLARE(int, TYPE_DUP_FN, (MPI_Datatype oldtype, int type_keyval, void *extra_state, void *attribute_val_in,
                                  void *attribute_val_out, int *flag))
STRATA_DECLARE(int, TYPE_NULL_DELETE_FN,
               (MPI_Datatype datatype, int type_keyval, void *attribute_val, void *extra_state))

/* Virtual process topologies (MPI-4.0 chapter 8). Ranks are never reordered: `reorder` is accepted and has no
 * effect, so rank r of the new communicator is rank r of the old. */
#define MPI_GRAPH 1
#define MPI_CART 2
#define MPI_DIST_GRAPH 3
/* Addresses of objects in libmpi, not small integers cast to pointers: compilers then see valid arrays where
 * programs pass them as `const int[]` (no -Wstringop-overread warnings in user code). */
extern int strata_mpi_unweighted, strata_mpi_weights_empty;
#define MPI_UNWEIGHTED (&strata_mpi_unweighted)
#define MPI_WEIGHTS_EMPTY (&strata_mpi_weights_empty)
STRATA_DECLARE(int, Dims_create, (int nnodes, int ndims, int dims[]))
STRATA_DECLARE(int, Cart_create, (MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                                  MPI_Comm *comm_cart))
STRATA_DECLARE(int, Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank))
STRATA_DECLARE(int, Cartdim_get, (MPI_Comm comm, int *ndims))
STRATA_DECLARE(int, Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
STRATA_DECLARE(int, Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
STRATA_DECLARE(int, Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
STRATA_DECLARE(int, Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest))
STRATA_DECLARE(int, Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
STRATA_DECLARE(int, Graph_create, (MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                                   MPI_Comm *comm_graph))
STRATA_DECLARE(int, Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank))
STRATA_DECLARE(int, Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
STRATA_DECLARE(int, Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
STRATA_DECLARE(int, Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
STRATA_DECLARE(int, Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
STRATA_DECLARE(int, Dist_graph_create_adjacent,
               (MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[], int outdegree,
                const int destinations[], const int destweights[], MPI_Info info, int reorder,
                MPI_Comm *comm_dist_graph))
STRATA_DECLARE(int, Dist_graph_create,
               (MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
                const int weights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
STRATA_DECLARE(int, Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted))
STRATA_DECLARE(int, Dist_graph_neighbors, (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                                           int maxoutdegree, int destinations[], int destweights[]))
STRATA_DECLARE(int, Topo_test, (MPI_Comm comm, int *status))
/* Neighbourhood collectives (MPI-4.0 8.6) on a communicator with a Cartesian or (distributed) graph topology. */
STRATA_DECLARE(int, Neighbor_allgather,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ineighbor_allgather,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_allgather_init,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_allgatherv,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ineighbor_allgatherv,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_allgatherv_init,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoall,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ineighbor_alltoall,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoall_init,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoallv,
               (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ineighbor_alltoallv,
               (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoallv_init,
               (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoallw,
               (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                MPI_Comm comm))
STRATA_DECLARE(int, Ineighbor_alltoallw,
               (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoallw_init,
               (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                MPI_Comm comm, MPI_Info info, MPI_Request *request))

/* Groups */
STRATA_DECLARE(int, Group_size, (MPI_Group group, int *size))
STRATA_DECLARE(int, Group_rank, (MPI_Group group, int *rank))
STRATA_DECLARE(int, Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
STRATA_DECLARE(int, Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
STRATA_DECLARE(int, Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
STRATA_DECLARE(int, Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
STRATA_DECLARE(int, Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
STRATA_DECLARE(int, Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
STRATA_DECLARE(int, Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
STRATA_DECLARE(int, Group_translate_ranks,
               (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]))
STRATA_DECLARE(int, Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
STRATA_DECLARE(int, Group_free, (MPI_Group *group))

/* Info objects */
STRATA_DECLARE(int, Info_create, (MPI_Info *info))
STRATA_DECLARE(int, Info_create_env, (int argc, char *argv[], MPI_Info *info))
STRATA_DECLARE(int, Info_set, (MPI_Info info, const char *key, const char *value))
STRATA_DECLARE(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
STRATA_DECLARE(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value, int *flag))
STRATA_DECLARE(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
STRATA_DECLARE(int, Info_get_nkeys, (MPI_Info info, int *nkeys))
STRATA_DECLARE(int, Info_get_nthkey, (MPI_Info info, int n, char *key))
STRATA_DECLARE(int, Info_delete, (MPI_Info info, const char *key))
STRATA_DECLARE(int, Info_dup, (MPI_Info info, MPI_Info *newinfo))
STRATA_DECLARE(int, Info_free, (MPI_Info *info))

/* Point-to-point */
STRATA_DECLARE(int, Send, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
STRATA_DECLARE(int, Ssend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
STRATA_DECLARE(int, Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
STRATA_DECLARE(int, Recv,
               (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status))
STRATA_DECLARE(int, Isend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                            MPI_Request *request))
STRATA_DECLARE(int, Issend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request))
STRATA_DECLARE(int, Irsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request))
STRATA_DECLARE(int, Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                            MPI_Request *request))
STRATA_DECLARE(int, Sendrecv,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status))
STRATA_DECLARE(int, Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                                       int source, int recvtag, MPI_Comm comm, MPI_Status *status))
STRATA_DECLARE(int, Isendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                                MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Isendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                                        int source, int recvtag, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status))
STRATA_DECLARE(int, Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status))
STRATA_DECLARE(int, Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status))
STRATA_DECLARE(int, Improbe,
               (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status))
STRATA_DECLARE(int, Mrecv, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status))
STRATA_DECLARE(int, Imrecv,
               (void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request))
STRATA_DECLARE(int, Get_count, (const MPI_Status *status, MPI_Datatype datatype, int *count))
STRATA_DECLARE(int, Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                                MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Ssend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Rsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request))
/* Buffered mode (MPI-4.0 3.6): each message takes its packed size plus MPI_BSEND_OVERHEAD of the attached buffer. */
#define MPI_BSEND_OVERHEAD 64
STRATA_DECLARE(int, Buffer_attach, (void *buffer, int size))
STRATA_DECLARE(int, Buffer_detach, (void *buffer_addr, int *size))
STRATA_DECLARE(int, Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm))
STRATA_DECLARE(int, Ibsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                             MPI_Request *request))
STRATA_DECLARE(int, Bsend_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                                 MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                                MPI_Request *request))
/* Partitioned communication (MPI-4.0 chapter 4): persistent requests started with MPI_Start, whose send side marks
 * partitions ready one by one and whose receive side may test them one by one. The two sides may cut the message
 * into different numbers of partitions. */
STRATA_DECLARE(int, Psend_init, (const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Precv_init, (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                                 int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Pready, (int partition, MPI_Request request))
STRATA_DECLARE(int, Pready_range, (int partition_low, int partition_high, MPI_Request request))
STRATA_DECLARE(int, Pready_list, (int length, const int array_of_partitions[], MPI_Request request))
STRATA_DECLARE(int, Parrived, (MPI_Request request, int partition, int *flag))

/* Requests */
STRATA_DECLARE(int, Start, (MPI_Request *request))
STRATA_DECLARE(int, Startall, (int count, MPI_Request array_of_requests[]))
STRATA_DECLARE(int, Wait, (MPI_Request *request, MPI_Status *status))
STRATA_DECLARE(int, Test, (MPI_Request *request, int *flag, MPI_Status *status))
STRATA_DECLARE(int, Waitall, (int count, MPI_Request array_of_requests[], MPI_Status *array_of_statuses))
STRATA_DECLARE(int, Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status))
STRATA_DECLARE(int, Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                               MPI_Status *array_of_statuses))
STRATA_DECLARE(int, Testall,
               (int count, MPI_Request array_of_requests[], int *flag, MPI_Status *array_of_statuses))
STRATA_DECLARE(int, Testany,
               (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status))
STRATA_DECLARE(int, Testsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                               MPI_Status *array_of_statuses))
STRATA_DECLARE(int, Request_free, (MPI_Request *request))
STRATA_DECLARE(int, Request_get_status, (MPI_Request request, int *flag, MPI_Status *status))
STRATA_DECLARE(int, Cancel, (MPI_Request *request))
STRATA_DECLARE(int, Test_cancelled, (const MPI_Status *status, int *flag))
/* Generalized requests (MPI-4.0 13.2) and the status setters they use (13.3). */
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
STRATA_DECLARE(int, Grequest_start, (MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                                     MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                                     MPI_Request *request))
STRATA_DECLARE(int, Grequest_complete, (MPI_Request request))
STRATA_DECLARE(int, Status_set_cancelled, (MPI_Status *status, int flag))
STRATA_DECLARE(int, Status_set_elements, (MPI_Status *status, MPI_Datatype datatype, int count))
STRATA_DECLARE(int, Status_set_elements_x, (MPI_Status *status, MPI_Datatype datatype, MPI_Count count))

/* Datatypes: constructors (MPI-4.0 5.1.2 - 5.1.7) */
STRATA_DECLARE(int, Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_vector,
               (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_hvector,
               (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_indexed, (int count, const int array_of_blocklengths[], const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_hindexed,
               (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_indexed_block, (int count, int blocklength, const int array_of_displacements[],
                                                MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_hindexed_block, (int count, int blocklength, const MPI_Aint array_of_displacements[],
                                                 MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_struct,
               (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_subarray,
               (int ndims, const int array_of_sizes[], const int array_of_subsizes[], const int array_of_starts[],
                int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_darray,
               (int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[],
                const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
                MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_commit, (MPI_Datatype *datatype))
STRATA_DECLARE(int, Type_free, (MPI_Datatype *datatype))

/* Datatypes: queries. The _x variants return MPI_Count; the int ones MPI_UNDEFINED when the value does not fit. */
STRATA_DECLARE(int, Type_size, (MPI_Datatype datatype, int *size))
STRATA_DECLARE(int, Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
STRATA_DECLARE(int, Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
STRATA_DECLARE(int, Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
STRATA_DECLARE(int, Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent))
STRATA_DECLARE(int, Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
STRATA_DECLARE(int, Type_get_envelope,
               (MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner))
STRATA_DECLARE(int, Type_get_contents,
               (MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]))
STRATA_DECLARE(int, Type_set_name, (MPI_Datatype datatype, const char *type_name))
STRATA_DECLARE(int, Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
/* The Fortran type of a class and a size in bytes: MPI_INTEGER1 ... 8, MPI_REAL4 and 8, MPI_COMPLEX8 and 16, and
 * for sizeof(long double) and its complex MPI_LONG_DOUBLE and MPI_C_LONG_DOUBLE_COMPLEX (the predefined handle
 * itself); MPI_ERR_ARG for another class or size. */
STRATA_DECLARE(int, Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
/* The type of the Fortran kind SELECTED_REAL_KIND(p, r) / SELECTED_INT_KIND(r) gives (gfortran's kinds: REAL4 and 8,
 * COMPLEX8 and 16, INTEGER1 ... 8; MPI_ERR_ARG beyond). It is predefined (no commit, no free) and its envelope is
 * MPI_COMBINER_F90_REAL / _COMPLEX / _INTEGER with (p, r) or (r); the same arguments give the same handle. */
STRATA_DECLARE(int, Type_create_f90_real, (int p, int r, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_f90_integer, (int r, MPI_Datatype *newtype))
STRATA_DECLARE(int, Get_elements, (const MPI_Status *status, MPI_Datatype datatype, int *count))
STRATA_DECLARE(int, Get_elements_x, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))

/* Packing and addresses */
STRATA_DECLARE(int, Pack, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
                           int *position, MPI_Comm comm))
STRATA_DECLARE(int, Unpack, (const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                             MPI_Datatype datatype, MPI_Comm comm))
STRATA_DECLARE(int, Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
/* The portable "external32" representation (MPI-4.0 13.5.2): big-endian, IEEE, the standard's sizes. */
STRATA_DECLARE(int, Pack_external, (const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                                    void *outbuf, MPI_Aint outsize, MPI_Aint *position))
STRATA_DECLARE(int, Unpack_external, (const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                                      void *outbuf, int outcount, MPI_Datatype datatype))
STRATA_DECLARE(int, Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size))
STRATA_DECLARE(int, Get_address, (const void *location, MPI_Aint *address))
STRATA_DECLARE(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp))
STRATA_DECLARE(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2))

/* Collectives (MPI-4.0 6.4 - 6.12), blocking and nonblocking */
STRATA_DECLARE(int, Barrier, (MPI_Comm comm))
STRATA_DECLARE(int, Ibarrier, (MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm))
STRATA_DECLARE(int, Ibcast,
               (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Gather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm))
STRATA_DECLARE(int, Igather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Gatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                              MPI_Comm comm))
STRATA_DECLARE(int, Igatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                               MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Scatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
STRATA_DECLARE(int, Iscatter, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
STRATA_DECLARE(int, Iscatterv,
               (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Allgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Iallgather, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Allgatherv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Iallgatherv,
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Alltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ialltoall, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Alltoallv, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                                MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ialltoallv,
               (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                MPI_Request *request))
STRATA_DECLARE(int, Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
STRATA_DECLARE(int, Ialltoallw,
               (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Reduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                             int root, MPI_Comm comm))
STRATA_DECLARE(int, Ireduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              int root, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Allreduce,
               (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
STRATA_DECLARE(int, Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                 MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Reduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                           MPI_Op op, MPI_Comm comm))
STRATA_DECLARE(int, Ireduce_scatter_block, (const void *sendbuf, void *recvbuf, int recvcount,
                                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Reduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
STRATA_DECLARE(int, Ireduce_scatter, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Scan,
               (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
STRATA_DECLARE(int, Iscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Exscan,
               (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
STRATA_DECLARE(int, Iexscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Request *request))

/* Persistent collectives (MPI-4.0 6.13): built once by the init call, started by MPI_Start / MPI_Startall */
STRATA_DECLARE(int, Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Bcast_init, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Gather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request))
STRATA_DECLARE(int, Gatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Scatter_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request))
STRATA_DECLARE(int, Scatterv_init, (const void *sendbuf, const int sendcounts[], const int displs[],
                                    MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                    int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Allgather_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request))
STRATA_DECLARE(int, Allgatherv_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                      MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Alltoall_init, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request))
STRATA_DECLARE(int, Alltoallv_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request))
STRATA_DECLARE(int, Alltoallw_init, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                     const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                     MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Reduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                  int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Allreduce_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Reduce_scatter_block_init, (const void *sendbuf, void *recvbuf, int recvcount,
                                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                                MPI_Request *request))
STRATA_DECLARE(int, Reduce_scatter_init, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                          MPI_Request *request))
STRATA_DECLARE(int, Scan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Exscan_init, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request))

/* Windows and one-sided communication (MPI-4.0 chapter 12; rma/), all in the unified memory model.
 * Shared-memory windows (MPI_Win_allocate_shared): loads and stores, with MPI_Win_sync / fence / lock / flush
 * ordering them. A communicator whose processes are on several nodes (real, or simulated by mpiexec --nodes) gives
 * MPI_ERR_RMA_SHARED on every process. Info key "alloc_shared_noncontig" = "true" (rank 0's value decides for
 * all): each process's part starts on a page of its own, placed by that process. MPI_Win_get_info reports the
 * layout in force ("true" or "false").
 * MPI_Win_create, MPI_Win_allocate, MPI_Win_create_dynamic: RMA operations travel as messages and the target applies
 * them whenever it is in an MPI call that waits or tests (as MPICH and Open MPI do without a progress thread).
 * MPI_Win_lock, flush and unlock accept MPI_PROC_NULL as a target and do nothing for it, as every RMA operation. */
STRATA_DECLARE(int, Win_create,
               (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win))
STRATA_DECLARE(int, Win_allocate,
               (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win))
STRATA_DECLARE(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win))
STRATA_DECLARE(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size))
STRATA_DECLARE(int, Win_detach, (MPI_Win win, const void *base))
STRATA_DECLARE(int, Win_allocate_shared,
               (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win))
STRATA_DECLARE(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr))
STRATA_DECLARE(int, Win_free, (MPI_Win *win))
STRATA_DECLARE(int, Win_get_group, (MPI_Win win, MPI_Group *group))
STRATA_DECLARE(int, Win_fence, (int assert, MPI_Win win))
STRATA_DECLARE(int, Win_sync, (MPI_Win win))
STRATA_DECLARE(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win))
STRATA_DECLARE(int, Win_unlock, (int rank, MPI_Win win))
STRATA_DECLARE(int, Win_lock_all, (int assert, MPI_Win win))
STRATA_DECLARE(int, Win_unlock_all, (MPI_Win win))
STRATA_DECLARE(int, Win_flush, (int rank, MPI_Win win))
STRATA_DECLARE(int, Win_flush_all, (MPI_Win win))
STRATA_DECLARE(int, Win_flush_local, (int rank, MPI_Win win))
STRATA_DECLARE(int, Win_flush_local_all, (MPI_Win win))
STRATA_DECLARE(int, Win_post, (MPI_Group group, int assert, MPI_Win win))
STRATA_DECLARE(int, Win_start, (MPI_Group group, int assert, MPI_Win win))
STRATA_DECLARE(int, Win_complete, (MPI_Win win))
STRATA_DECLARE(int, Win_wait, (MPI_Win win))
STRATA_DECLARE(int, Win_test, (MPI_Win win, int *flag))
STRATA_DECLARE(int, Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                          MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
STRATA_DECLARE(int, Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                          MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
STRATA_DECLARE(int, Accumulate,
               (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
STRATA_DECLARE(int, Get_accumulate,
               (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
STRATA_DECLARE(int, Fetch_and_op, (const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                                   MPI_Aint target_disp, MPI_Op op, MPI_Win win))
STRATA_DECLARE(int, Compare_and_swap,
               (const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype,
                int target_rank, MPI_Aint target_disp, MPI_Win win))
STRATA_DECLARE(int, Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                           MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                           MPI_Request *request))
STRATA_DECLARE(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                           MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                           MPI_Request *request))
STRATA_DECLARE(int, Raccumulate,
               (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                MPI_Request *request))
STRATA_DECLARE(int, Rget_accumulate,
               (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
/* Window attributes (MPI-4.0 12.2.6, 7.7.3): the predefined MPI_WIN_* ones and the user's. Windows are never
 * duplicated, so a window copy callback is never called. */
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in,
                                       void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val, void *extra_state);
STRATA_DECLARE(int, Win_create_keyval,
               (MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn,
                int *win_keyval, void *extra_state))
STRATA_DECLARE(int, Win_free_keyval, (int *win_keyval))
STRATA_DECLARE(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val))
STRATA_DECLARE(int, Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag))
STRATA_DECLARE(int, Win_delete_attr, (MPI_Win win, int win_keyval))
STRATA_DECLARE(int, WIN_NULL_COPY_FN, (MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in,
                                       void *attribute_val_out, int *flag))
STRATA_DECLARE(int, WIN_DUP_FN, (MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in,
                                 void *attribute_val_out, int *flag))
STRATA_DECLARE(int, WIN_NULL_DELETE_FN, (MPI_Win win, int win_keyval, void *attribute_val, void *extra_state))
STRATA_DECLARE(int, Win_set_name, (MPI_Win win, const char *win_name))
STRATA_DECLARE(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen))
STRATA_DECLARE(int, Win_set_info, (MPI_Win win, MPI_Info info))
STRATA_DECLARE(int, Win_get_info, (MPI_Win win, MPI_Info *info_used))
STRATA_DECLARE(int, Win_create_errhandler,
               (MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler))
STRATA_DECLARE(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler))
STRATA_DECLARE(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler))
STRATA_DECLARE(int, Win_call_errhandler, (MPI_Win win, int errorcode))
/* Memory for RMA (MPI-4.0 8.2): 64-byte aligned. A size of 0 gives NULL, which MPI_Free_mem accepts. */
STRATA_DECLARE(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
STRATA_DECLARE(int, Free_mem, (void *base))

/* Reduction operators */
STRATA_DECLARE(int, Op_create, (MPI_User_function *user_fn, int commute, MPI_Op *op))
STRATA_DECLARE(int, Op_free, (MPI_Op *op))
STRATA_DECLARE(int, Op_commutative, (MPI_Op op, int *commute))
STRATA_DECLARE(int, Reduce_local, (const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op))

/* ---- Large-count (_c) calls, MPI-4.0 2.5.8 and Annex A: the twin of each call with a count or displacement
 *      argument, taking MPI_Count counts (and sizes, positions and the _c datatype constructors' displacements).
 *      They behave as their int twins; counts above INT_MAX really work where noted. ----------------------------- */
/* Point-to-point (any count: the transport counts bytes in 64 bits) */
STRATA_DECLARE(int, Send_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm))
STRATA_DECLARE(int, Bsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm))
STRATA_DECLARE(int, Ssend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm))
STRATA_DECLARE(int, Rsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm))
STRATA_DECLARE(int, Isend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                              MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Ibsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Issend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Irsend_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                               MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Send_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                                  MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Bsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                                   MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Ssend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                                   MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Rsend_init_c, (const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                                   MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                             MPI_Status *status))
STRATA_DECLARE(int, Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                              MPI_Request *request))
STRATA_DECLARE(int, Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                                  MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Mrecv_c,
               (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status))
STRATA_DECLARE(int, Imrecv_c,
               (void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request))
STRATA_DECLARE(int, Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                                 int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                                 int recvtag, MPI_Comm comm, MPI_Status *status))
STRATA_DECLARE(int, Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                                         int source, int recvtag, MPI_Comm comm, MPI_Status *status))
STRATA_DECLARE(int, Isendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                                  int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source,
                                  int recvtag, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Isendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                                          int source, int recvtag, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Get_count_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
/* MPI_Buffer_detach (int) fails with MPI_ERR_VALUE_TOO_LARGE, leaving it attached, for a buffer above INT_MAX. */
STRATA_DECLARE(int, Buffer_attach_c, (void *buffer, MPI_Count size))
STRATA_DECLARE(int, Buffer_detach_c, (void *buffer_addr, MPI_Count *size))
/* Datatypes (any count the size and extent of which fit MPI_Count / MPI_Aint). A type built by a _c constructor
 * keeps its arguments as large counts: MPI_Type_get_envelope and MPI_Type_get_contents refuse it (MPI_ERR_TYPE);
 * the _c twins return it, with the counts and byte displacements in array_of_large_counts. */
STRATA_DECLARE(int, Type_contiguous_c, (MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_vector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                                    MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_hvector_c, (MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                            MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_indexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
                                     const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                     MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_hindexed_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
                                             const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                             MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_indexed_block_c, (MPI_Count count, MPI_Count blocklength,
                                                  const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                                  MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_hindexed_block_c, (MPI_Count count, MPI_Count blocklength,
                                                   const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                                   MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_struct_c, (MPI_Count count, const MPI_Count array_of_blocklengths[],
                                           const MPI_Count array_of_displacements[],
                                           const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_subarray_c, (int ndims, const MPI_Count array_of_sizes[],
                                             const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
                                             int order, MPI_Datatype oldtype, MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_darray_c, (int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                                           const int array_of_distribs[], const int array_of_dargs[],
                                           const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                           MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_create_resized_c, (MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                                            MPI_Datatype *newtype))
STRATA_DECLARE(int, Type_size_c, (MPI_Datatype datatype, MPI_Count *size))
STRATA_DECLARE(int, Type_get_extent_c, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
STRATA_DECLARE(int, Type_get_true_extent_c, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
STRATA_DECLARE(int, Type_get_envelope_c, (MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                                          MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner))
STRATA_DECLARE(int, Type_get_contents_c,
               (MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses, MPI_Count max_large_counts,
                MPI_Count max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
                MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[]))
STRATA_DECLARE(int, Get_elements_c, (const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count))
STRATA_DECLARE(int, Pack_c, (const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                             MPI_Count outsize, MPI_Count *position, MPI_Comm comm))
STRATA_DECLARE(int, Unpack_c, (const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                               MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm))
STRATA_DECLARE(int, Pack_size_c, (MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size))
STRATA_DECLARE(int, Pack_external_c, (const char datarep[], const void *inbuf, MPI_Count incount,
                                      MPI_Datatype datatype, void *outbuf, MPI_Count outsize, MPI_Count *position))
STRATA_DECLARE(int, Unpack_external_c, (const char datarep[], const void *inbuf, MPI_Count insize,
                                        MPI_Count *position, void *outbuf, MPI_Count outcount, MPI_Datatype datatype))
STRATA_DECLARE(int, Pack_external_size_c,
               (const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count *size))
/* Collectives, blocking, nonblocking and persistent, and the neighbourhood ones. The scalar counts may exceed
 * INT_MAX; the v and w calls' counts and displacements must each fit an int (else MPI_ERR_COUNT), as must the
 * total of a reduce-scatter. */
STRATA_DECLARE(int, Neighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ineighbor_allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                            void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                            MPI_Request *request))
STRATA_DECLARE(int, Neighbor_allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                                void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                                MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                            void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                            MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ineighbor_allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                             void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                                 void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                                 MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ineighbor_alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                           MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                               MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                           const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                           MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ineighbor_alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                            const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                            const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                                const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                                const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                                MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                           const MPI_Datatype recvtypes[], MPI_Comm comm))
STRATA_DECLARE(int, Ineighbor_alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                            const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                                            const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                            const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Neighbor_alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[],
                                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                                void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                                const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                                MPI_Request *request))
STRATA_DECLARE(int, Bcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm))
STRATA_DECLARE(int, Ibcast_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                               MPI_Request *request))
STRATA_DECLARE(int, Gather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
STRATA_DECLARE(int, Igather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                MPI_Request *request))
STRATA_DECLARE(int, Gatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                int root, MPI_Comm comm))
STRATA_DECLARE(int, Igatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                 int root, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Scatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm))
STRATA_DECLARE(int, Iscatter_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                 MPI_Request *request))
STRATA_DECLARE(int, Scatterv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                                 MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                 int root, MPI_Comm comm))
STRATA_DECLARE(int, Iscatterv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  int root, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Allgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Iallgather_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Allgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                   MPI_Comm comm))
STRATA_DECLARE(int, Iallgatherv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Alltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ialltoall_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Alltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                  MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm))
STRATA_DECLARE(int, Ialltoallv_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Request *request))
STRATA_DECLARE(int, Alltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                  const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm))
STRATA_DECLARE(int, Ialltoallw_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                   const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                   MPI_Request *request))
STRATA_DECLARE(int, Reduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                               int root, MPI_Comm comm))
STRATA_DECLARE(int, Ireduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                                int root, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Allreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm))
STRATA_DECLARE(int, Iallreduce_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Reduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
STRATA_DECLARE(int, Ireduce_scatter_block_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Reduce_scatter_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm))
STRATA_DECLARE(int, Ireduce_scatter_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Scan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm))
STRATA_DECLARE(int, Iscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Exscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                               MPI_Comm comm))
STRATA_DECLARE(int, Iexscan_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                                MPI_Comm comm, MPI_Request *request))
STRATA_DECLARE(int, Bcast_init_c, (void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Gather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Gatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                     int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Scatter_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                     MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                     MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Scatterv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                      MPI_Request *request))
STRATA_DECLARE(int, Allgather_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                       MPI_Request *request))
STRATA_DECLARE(int, Allgatherv_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Alltoall_init_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                      MPI_Request *request))
STRATA_DECLARE(int, Alltoallv_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                       MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                                       const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                       MPI_Request *request))
STRATA_DECLARE(int, Alltoallw_init_c, (const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                       const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                       MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Reduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                    MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Allreduce_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Reduce_scatter_block_init_c, (const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                                  MPI_Request *request))
STRATA_DECLARE(int, Reduce_scatter_init_c, (const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                            MPI_Request *request))
STRATA_DECLARE(int, Scan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))
STRATA_DECLARE(int, Exscan_init_c, (const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request))

/* One-sided communication (any count). The windows keep an int disp_unit: a larger one fails with MPI_ERR_DISP. */
STRATA_DECLARE(int, Put_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                            int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                            MPI_Datatype target_datatype, MPI_Win win))
STRATA_DECLARE(int, Get_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                            MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win))
STRATA_DECLARE(int, Accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                   int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
STRATA_DECLARE(int, Get_accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                       void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                                       int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
STRATA_DECLARE(int, Rput_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                             int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                             MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request))
STRATA_DECLARE(int, Rget_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                             MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                             MPI_Request *request))
STRATA_DECLARE(int, Raccumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                    int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
STRATA_DECLARE(int, Rget_accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                        void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                                        int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
STRATA_DECLARE(int, Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                                   MPI_Win *win))
STRATA_DECLARE(int, Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                     MPI_Win *win))
STRATA_DECLARE(int, Win_allocate_shared_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                                            void *baseptr, MPI_Win *win))
STRATA_DECLARE(int, Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr))
/* Reductions: a user function of MPI_Op_create_c gets the whole count in one call (MPI_Op_create's functions get at
 * most INT_MAX elements a call). */
typedef void MPI_User_function_c(void *invec, void *inoutvec, MPI_Count *len, MPI_Datatype *datatype);
STRATA_DECLARE(int, Op_create_c, (MPI_User_function_c *user_fn, int commute, MPI_Op *op))
STRATA_DECLARE(int, Reduce_local_c,
               (const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op))

/* ---- Strata extensions (MPIX_), each with a PMPIX_ twin ------------------------------------------------------ */
/* Sessions (MPI-4.0 11.3): MPI used without MPI_Init. The process sets are "mpi://WORLD" and "mpi://SELF"; a
 * session's info has "thread_level" (the level provided), a process set's "mpi_size". */
typedef void MPI_Session_errhandler_function(MPI_Session *, int *, ...);
STRATA_DECLARE(int, Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session))
STRATA_DECLARE(int, Session_finalize, (MPI_Session *session))
STRATA_DECLARE(int, Session_get_num_psets, (MPI_Session session, MPI_Info info, int *npset_names))
STRATA_DECLARE(int, Session_get_nth_pset, (MPI_Session session, MPI_Info info, int n, int *pset_len,
                                           char *pset_name))
STRATA_DECLARE(int, Session_get_info, (MPI_Session session, MPI_Info *info_used))
STRATA_DECLARE(int, Session_get_pset_info, (MPI_Session session, const char *pset_name, MPI_Info *info))
STRATA_DECLARE(int, Group_from_session_pset, (MPI_Session session, const char *pset_name, MPI_Group *newgroup))
STRATA_DECLARE(int, Comm_create_from_group, (MPI_Group group, const char *stringtag, MPI_Info info,
                                             MPI_Errhandler errhandler, MPI_Comm *newcomm))
STRATA_DECLARE(int, Session_create_errhandler,
               (MPI_Session_errhandler_function *session_errhandler_fn, MPI_Errhandler *errhandler))
STRATA_DECLARE(int, Session_set_errhandler, (MPI_Session session, MPI_Errhandler errhandler))
STRATA_DECLARE(int, Session_get_errhandler, (MPI_Session session, MPI_Errhandler *errhandler))
STRATA_DECLARE(int, Session_call_errhandler, (MPI_Session session, int errorcode))

/* Handle conversions between C and Fortran (MPI-4.0 19.3.4): the identity, both are ints. */
STRATA_DECLARE(MPI_Fint, Comm_c2f, (MPI_Comm comm))
STRATA_DECLARE(MPI_Comm, Comm_f2c, (MPI_Fint comm))
STRATA_DECLARE(MPI_Fint, Group_c2f, (MPI_Group group))
STRATA_DECLARE(MPI_Group, Group_f2c, (MPI_Fint group))
STRATA_DECLARE(MPI_Fint, Type_c2f, (MPI_Datatype datatype))
STRATA_DECLARE(MPI_Datatype, Type_f2c, (MPI_Fint datatype))
STRATA_DECLARE(MPI_Fint, Op_c2f, (MPI_Op op))
STRATA_DECLARE(MPI_Op, Op_f2c, (MPI_Fint op))
STRATA_DECLARE(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler))
STRATA_DECLARE(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler))
STRATA_DECLARE(MPI_Fint, Request_c2f, (MPI_Request request))
STRATA_DECLARE(MPI_Request, Request_f2c, (MPI_Fint request))
STRATA_DECLARE(MPI_Fint, Info_c2f, (MPI_Info info))
STRATA_DECLARE(MPI_Info, Info_f2c, (MPI_Fint info))
STRATA_DECLARE(MPI_Fint, Message_c2f, (MPI_Message message))
STRATA_DECLARE(MPI_Message, Message_f2c, (MPI_Fint message))
STRATA_DECLARE(MPI_Fint, Win_c2f, (MPI_Win win))
STRATA_DECLARE(MPI_Win, Win_f2c, (MPI_Fint win))
STRATA_DECLARE(MPI_Fint, Session_c2f, (MPI_Session session))
STRATA_DECLARE(MPI_Session, Session_f2c, (MPI_Fint session))

/* Status conversions (MPI-4.0 19.3.5). A Fortran status is MPI_F_STATUS_SIZE integers: source, tag and error at the
 * C indices below, then the private fields (cancelled, bytes low and high words); the mpi_f08 one is the same
 * integers as a struct. MPI_F_STATUS(ES)_IGNORE are addresses Fortran code would pass; C code only compares. */
#define MPI_F_STATUS_SIZE 6
#define MPI_F_SOURCE 0
#define MPI_F_TAG 1
#define MPI_F_ERROR 2
typedef struct MPI_F08_status {
  MPI_Fint MPI_SOURCE;
  MPI_Fint MPI_TAG;
  MPI_Fint MPI_ERROR;
  MPI_Fint strata_internal[3]; /* private */
} MPI_F08_status;
extern MPI_Fint strata_mpi_f_status_ignore[MPI_F_STATUS_SIZE], strata_mpi_f_statuses_ignore[MPI_F_STATUS_SIZE];
extern MPI_F08_status strata_mpi_f08_status_ignore, strata_mpi_f08_statuses_ignore;
#define MPI_F_STATUS_IGNORE ((MPI_Fint *)strata_mpi_f_status_ignore)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)strata_mpi_f_statuses_ignore)
#define MPI_F08_STATUS_IGNORE (&strata_mpi_f08_status_ignore)
#define MPI_F08_STATUSES_IGNORE (&strata_mpi_f08_statuses_ignore)
STRATA_DECLARE(int, Status_c2f, (const MPI_Status *c_status, MPI_Fint *f_status))
STRATA_DECLARE(int, Status_f2c, (const MPI_Fint *f_status, MPI_Status *c_status))
STRATA_DECLARE(int, Status_c2f08, (const MPI_Status *c_status, MPI_F08_status *f08_status))
STRATA_DECLARE(int, Status_f082c, (const MPI_F08_status *f08_status, MPI_Status *c_status))
STRATA_DECLARE(int, Status_f2f08, (const MPI_Fint *f_status, MPI_F08_status *f08_status))
STRATA_DECLARE(int, Status_f082f, (const MPI_F08_status *f08_status, MPI_Fint *f_status))

/* ---- The tools information interface, MPI_T (MPI-4.0 15.3) -------------------------------------------------------
 * Usable before MPI_Init and after MPI_Finalize between MPI_T_init_thread and MPI_T_finalize (reference counted);
 * outside such a pair every other MPI_T_ call returns MPI_T_ERR_NOT_INITIALIZED. MPI_T_ calls never run an error
 * handler: they return one of the classes below (or another MPI_ERR_ class) as it is.
 * Control variables: Strata's environment settings (STRATA_CHECK_COLL, STRATA_SHM_RINGS, ... as lower-case names:
 * strata_check_coll, ...), read at first use and read-only (MPI_T_ERR_CVAR_SET_NEVER), except the per-operation
 * collective algorithms strata_coll_<operation> (MPI_CHAR, scope MPI_T_SCOPE_ALL_EQ: every process writes the same
 * name, between collectives; an unknown name is MPI_T_ERR_INVALID; "" returns to the automatic choice).
 * Performance variables: the point-to-point engine's message and byte counters (MPI_T_PVAR_CLASS_COUNTER) and
 * queue lengths (MPI_T_PVAR_CLASS_LEVEL, continuous, read-only). Categories: "strata" holding
 * "strata_collectives", "strata_transport" and "strata_cost_model". No event types and no event sources. */
typedef struct strata_mpi_t_enum_s *MPI_T_enum;
typedef struct strata_mpi_t_cvar_handle_s *MPI_T_cvar_handle;
typedef struct strata_mpi_t_pvar_handle_s *MPI_T_pvar_handle;
typedef struct strata_mpi_t_pvar_session_s *MPI_T_pvar_session;
typedef struct strata_mpi_t_event_registration_s *MPI_T_event_registration;
typedef struct strata_mpi_t_event_instance_s *MPI_T_event_instance;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_EVENT_REGISTRATION_NULL ((MPI_T_event_registration)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)1)

/* MPI_T error classes (MPI-4.0 15.3.10); valid for MPI_Error_class and MPI_Error_string. */
#define MPI_T_ERR_MEMORY 61
#define MPI_T_ERR_NOT_INITIALIZED 62
#define MPI_T_ERR_CANNOT_INIT 63
#define MPI_T_ERR_NOT_ACCESSIBLE 64
#define MPI_T_ERR_INVALID_INDEX 65
#define MPI_T_ERR_INVALID_ITEM 66
#define MPI_T_ERR_INVALID_HANDLE 67
#define MPI_T_ERR_OUT_OF_HANDLES 68
#define MPI_T_ERR_OUT_OF_SESSIONS 69
#define MPI_T_ERR_INVALID_SESSION 70
#define MPI_T_ERR_CVAR_SET_NOT_NOW 71
#define MPI_T_ERR_CVAR_SET_NEVER 72
#define MPI_T_ERR_PVAR_NO_STARTSTOP 73
#define MPI_T_ERR_PVAR_NO_WRITE 74
#define MPI_T_ERR_PVAR_NO_ATOMIC 75
#define MPI_T_ERR_INVALID_NAME 76
#define MPI_T_ERR_INVALID 77
#define MPI_T_ERR_NOT_SUPPORTED 78

/* Verbosity (15.3.1), binding (15.3.2), control variable scope (15.3.6), performance variable class (15.3.7). */
#define MPI_T_VERBOSITY_USER_BASIC 221
#define MPI_T_VERBOSITY_USER_DETAIL 222
#define MPI_T_VERBOSITY_USER_ALL 223
#define MPI_T_VERBOSITY_TUNER_BASIC 224
#define MPI_T_VERBOSITY_TUNER_DETAIL 225
#define MPI_T_VERBOSITY_TUNER_ALL 226
#define MPI_T_VERBOSITY_MPIDEV_BASIC 227
#define MPI_T_VERBOSITY_MPIDEV_DETAIL 228
#define MPI_T_VERBOSITY_MPIDEV_ALL 229
#define MPI_T_BIND_NO_OBJECT 0
#define MPI_T_BIND_MPI_COMM 1
#define MPI_T_BIND_MPI_DATATYPE 2
#define MPI_T_BIND_MPI_ERRHANDLER 3
#define MPI_T_BIND_MPI_FILE 4
#define MPI_T_BIND_MPI_GROUP 5
#define MPI_T_BIND_MPI_OP 6
#define MPI_T_BIND_MPI_REQUEST 7
#define MPI_T_BIND_MPI_WIN 8
#define MPI_T_BIND_MPI_MESSAGE 9
#define MPI_T_BIND_MPI_INFO 10
#define MPI_T_BIND_MPI_SESSION 11
#define MPI_T_SCOPE_CONSTANT 0
#define MPI_T_SCOPE_READONLY 1
#define MPI_T_SCOPE_LOCAL 2
#define MPI_T_SCOPE_GROUP 3
#define MPI_T_SCOPE_GROUP_EQ 4
#define MPI_T_SCOPE_ALL 5
#define MPI_T_SCOPE_ALL_EQ 6
#define MPI_T_PVAR_CLASS_STATE 0
#define MPI_T_PVAR_CLASS_LEVEL 1
#define MPI_T_PVAR_CLASS_SIZE 2
#define MPI_T_PVAR_CLASS_PERCENTAGE 3
#define MPI_T_PVAR_CLASS_HIGHWATERMARK 4
#define MPI_T_PVAR_CLASS_LOWWATERMARK 5
#define MPI_T_PVAR_CLASS_COUNTER 6
#define MPI_T_PVAR_CLASS_AGGREGATE 7
#define MPI_T_PVAR_CLASS_TIMER 8
#define MPI_T_PVAR_CLASS_GENERIC 9

/* Events and their sources (15.3.8). */
typedef enum MPI_T_cb_safety {
  MPI_T_CB_REQUIRE_NONE = 0,
  MPI_T_CB_REQUIRE_MPI_RESTRICTED = 1,
  MPI_T_CB_REQUIRE_THREAD_SAFE = 2,
  MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE = 3
} MPI_T_cb_safety;
typedef enum MPI_T_source_order { MPI_T_SOURCE_ORDERED = 0, MPI_T_SOURCE_UNORDERED = 1 } MPI_T_source_order;
typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance, MPI_T_event_registration event_registration,
                                     MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                          void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count, MPI_T_event_registration event_registration,
                                             int source_index, MPI_T_cb_safety cb_safety, void *user_data);

#define STRATA_DECLARE_T(ret, name, args) ret MPI_T_##name args; ret PMPI_T_##name args;
STRATA_DECLARE_T(int, init_thread, (int required, int *provided))
STRATA_DECLARE_T(int, finalize, (void))
STRATA_DECLARE_T(int, enum_get_info, (MPI_T_enum enumtype, int *num, char *name, int *name_len))
STRATA_DECLARE_T(int, enum_get_item, (MPI_T_enum enumtype, int index, int *value, char *name, int *name_len))
STRATA_DECLARE_T(int, cvar_get_num, (int *num_cvar))
STRATA_DECLARE_T(int, cvar_get_info, (int cvar_index, char *name, int *name_len, int *verbosity,
                                      MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                                      int *bind, int *scope))
STRATA_DECLARE_T(int, cvar_get_index, (const char *name, int *cvar_index))
STRATA_DECLARE_T(int, cvar_handle_alloc, (int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count))
STRATA_DECLARE_T(int, cvar_handle_free, (MPI_T_cvar_handle *handle))
STRATA_DECLARE_T(int, cvar_read, (MPI_T_cvar_handle handle, void *buf))
STRATA_DECLARE_T(int, cvar_write, (MPI_T_cvar_handle handle, const void *buf))
STRATA_DECLARE_T(int, pvar_get_num, (int *num_pvar))
STRATA_DECLARE_T(int, pvar_get_info, (int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                                      MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                                      int *bind, int *readonly, int *continuous, int *atomic))
STRATA_DECLARE_T(int, pvar_get_index, (const char *name, int var_class, int *pvar_index))
STRATA_DECLARE_T(int, pvar_session_create, (MPI_T_pvar_session *session))
STRATA_DECLARE_T(int, pvar_session_free, (MPI_T_pvar_session *session))
STRATA_DECLARE_T(int, pvar_handle_alloc, (MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                                          MPI_T_pvar_handle *handle, int *count))
STRATA_DECLARE_T(int, pvar_handle_free, (MPI_T_pvar_session session, MPI_T_pvar_handle *handle))
STRATA_DECLARE_T(int, pvar_start, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
STRATA_DECLARE_T(int, pvar_stop, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
STRATA_DECLARE_T(int, pvar_read, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))
STRATA_DECLARE_T(int, pvar_write, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf))
STRATA_DECLARE_T(int, pvar_reset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle))
STRATA_DECLARE_T(int, pvar_readreset, (MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf))
STRATA_DECLARE_T(int, category_get_num, (int *num_cat))
STRATA_DECLARE_T(int, category_get_info, (int cat_index, char *name, int *name_len, char *desc, int *desc_len,
                                          int *num_cvars, int *num_pvars, int *num_categories))
STRATA_DECLARE_T(int, category_get_num_events, (int cat_index, int *num_events))
STRATA_DECLARE_T(int, category_get_index, (const char *name, int *cat_index))
STRATA_DECLARE_T(int, category_get_cvars, (int cat_index, int len, int indices[]))
STRATA_DECLARE_T(int, category_get_pvars, (int cat_index, int len, int indices[]))
STRATA_DECLARE_T(int, category_get_events, (int cat_index, int len, int indices[]))
STRATA_DECLARE_T(int, category_get_categories, (int cat_index, int len, int indices[]))
STRATA_DECLARE_T(int, category_changed, (int *update_number))
STRATA_DECLARE_T(int, source_get_num, (int *num_sources))
STRATA_DECLARE_T(int, source_get_info, (int source_index, char *name, int *name_len, char *desc, int *desc_len,
                                        MPI_T_source_order *ordering, MPI_Count *ticks_per_second,
                                        MPI_Count *max_ticks, MPI_Info *info))
STRATA_DECLARE_T(int, source_get_timestamp, (int source_index, MPI_Count *timestamp))
STRATA_DECLARE_T(int, event_get_num, (int *num_events))
STRATA_DECLARE_T(int, event_get_info, (int event_index, char *name, int *name_len, int *verbosity,
                                       MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                                       int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                                       int *desc_len, int *bind))
STRATA_DECLARE_T(int, event_get_index, (const char *name, int *event_index))
STRATA_DECLARE_T(int, event_handle_alloc, (int event_index, void *obj_handle, MPI_Info info,
                                           MPI_T_event_registration *event_registration))
STRATA_DECLARE_T(int, event_handle_set_info, (MPI_T_event_registration event_registration, MPI_Info info))
STRATA_DECLARE_T(int, event_handle_get_info, (MPI_T_event_registration event_registration, MPI_Info *info_used))
STRATA_DECLARE_T(int, event_register_callback, (MPI_T_event_registration event_registration,
                                                MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                                MPI_T_event_cb_function event_cb_function))
STRATA_DECLARE_T(int, event_callback_set_info, (MPI_T_event_registration event_registration,
                                                MPI_T_cb_safety cb_safety, MPI_Info info))
STRATA_DECLARE_T(int, event_callback_get_info, (MPI_T_event_registration event_registration,
                                                MPI_T_cb_safety cb_safety, MPI_Info *info_used))
STRATA_DECLARE_T(int, event_handle_free, (MPI_T_event_registration event_registration, void *user_data,
                                          MPI_T_event_free_cb_function free_cb_function))
STRATA_DECLARE_T(int, event_set_dropped_handler, (MPI_T_event_registration event_registration,
                                                  MPI_T_event_dropped_cb_function dropped_cb_function))
STRATA_DECLARE_T(int, event_read, (MPI_T_event_instance event_instance, int element_index, void *buffer))
STRATA_DECLARE_T(int, event_copy, (MPI_T_event_instance event_instance, void *buffer))
STRATA_DECLARE_T(int, event_get_timestamp, (MPI_T_event_instance event_instance, MPI_Count *event_timestamp))
STRATA_DECLARE_T(int, event_get_source, (MPI_T_event_instance event_instance, int *source_index))
#undef STRATA_DECLARE_T

#define STRATA_DECLARE_X(ret, name, args) ret MPIX_##name args; ret PMPIX_##name args;

/* MPIX_Get_hw_placement: where the calling process lies, as Strata's topology layer sees it (the machine of its
 * node, real or simulated by mpiexec --topology, and its binding). Returns a new info object (free it with
 * MPI_Info_free) with the keys:
 *   "node"       the node id (equal ids: the same real or simulated node); "hostname": the node's name;
 *   "binding"    "real", "simulated" (mpiexec bound it on a simulated machine) or "none";
 *   "cpuset"     the PUs it may run on, as an hwloc list ("0-3,8"): the whole machine when unbound;
 *   one key per level the machine has, by canonical name (hwloc://Machine, hwloc://Package, hwloc://NUMANode,
 *                hwloc://L3Cache, hwloc://L2Cache, hwloc://L1Cache, hwloc://Core, hwloc://PU): "<index>/<count>",
 *                the node-unique index of the one instance holding the whole binding and the number of instances
 *                on the node, or "none/<count>" when the binding spans several instances;
 *   one key per network level the job has (strata://Rack, strata://Switch: mpiexec --network, or the resource
 *                manager's PMIX_FABRIC_GROUPS as Rack): "<index>/<count>", the job-wide index of the node's
 *                instance and the number of instances in the job ("none/<count>" for a node no instance lists);
 *   "redundant"  the levels whose instances equal those of a level above them, space separated (may be empty).
 * Levels the machine lacks have no key. Errors: MPI_ERR_ARG for a NULL argument, MPI_ERR_OTHER when the
 * launcher's topology cannot be read. */
STRATA_DECLARE_X(int, Get_hw_placement, (MPI_Info *placement))

/* MPIX_Request_get_algorithm: the collective algorithm a persistent or active nonblocking collective request runs,
 * by the name the info key strata_coll_<operation> and STRATA_COLL_<OPERATION> take (e.g. "binomial"), copied
 * into `name` (at least MPI_MAX_OBJECT_NAME chars). Errors: MPI_ERR_REQUEST for a request that is not a
 * collective's, MPI_ERR_ARG for a NULL argument. */
STRATA_DECLARE_X(int, Request_get_algorithm, (MPI_Request request, char *name, int *resultlen))

/* Why a collective runs the algorithm it runs: a new info object (free it with MPI_Info_free) with the keys
 *   "algorithm"   its name, as above;
 *   "reason"      "forced by info key strata_coll_<operation>", "forced by STRATA_COLL_<OPERATION>", "cost model"
 *                 (the call could use the hardware topology: every candidate was costed), "rule table" (the
 *                 measured defaults) or "the first that applies";
 *   "candidates"  with "cost model": every candidate with its predicted time and pace (the busiest rank's own
 *                 share of the messages: what calls back to back could keep up at best), fastest first and,
 *                 of equal times, lower pace first, e.g. "hierarchical 12.1 us (pace 7.4 us), grouped (G=4)
 *                 15 us (pace 9.1 us), binomial 20.4 us (pace 20.4 us)"; else empty;
 *   "groups"      for the grouped family, its number of groups G: the value of the info key strata_coll_groups
 *                 or of STRATA_COLL_GROUPS (a positive integer; other values make the collective fail with
 *                 MPI_ERR_ARG), else the cost model's choice, else round(sqrt(p));
 *   "cost_parameters" where the model's figures come from: "built-in", "file PATH" (STRATA_COST_FILE) or "probe
 *                 at MPI_Init" (STRATA_COST_PROBE=1: measured once per job between rank 0 and one rank of each
 *                 link class it has, the same on every rank);
 *   "cores_per_node" the processors the model lets each node's ranks share: a cost file's cores_per_node line,
 *                 else what Strata's mpiexec says (it runs each simulated node on its share of the real
 *                 processors the job may use, which may be a fraction of one, "%g" format), else "0": as many
 *                 as the node has ranks;
 *   "nodes_per_host" how many consecutive nodes share their processors in the model (one pool of
 *                 cores_per_node x nodes_per_host): a cost file's nodes_per_host line, else what Strata's
 *                 mpiexec says (more simulated nodes than real processors: several on each), else "1".
 * MPIX_Request_get_coll_info: for a persistent or active nonblocking collective request (errors as
 * MPIX_Request_get_algorithm's). MPIX_Comm_get_coll_info: local; what a call of `operation` (an info key suffix:
 * "bcast", "allreduce", ...; not the v and w variants) rooted at 0 with `bytes` per rank and block would run on
 * comm now (MPI_DOUBLE sums for the reductions, MPI_BYTE otherwise). Errors: MPI_ERR_COMM, MPI_ERR_ARG for an
 * unknown operation or a NULL argument, MPI_ERR_COUNT for negative bytes. */
STRATA_DECLARE_X(int, Request_get_coll_info, (MPI_Request request, MPI_Info *info))
STRATA_DECLARE_X(int, Comm_get_coll_info, (MPI_Comm comm, const char *operation, MPI_Count bytes, MPI_Info *info))

/* Hybrid MPI+MPI collectives (a proposal after Zhou et al. 2020, ../shared/papers/zhou2020-...): the result of a
 * collective lives once per node, in a shared-memory window every process of the node reads, instead of once per
 * process. Only the node leaders (the lowest rank of each node) communicate between nodes.
 *
 * MPIX_Hybrid_create: collective over comm. Makes the node communicator (MPI_COMM_TYPE_SHARED) and the bridge
 *   communicator of the leaders once. MPIX_Hybrid_free: collective; releases them (set to MPIX_HYBRID_NULL).
 * MPIX_Hybrid_get_comms: the node communicator, and the bridge one (MPI_COMM_NULL on processes that do not lead).
 *   Either pointer may be NULL. The communicators belong to the hybrid object: do not free them.
 * MPIX_Hybrid_alloc: collective over the node; a node buffer of `bytes` bytes, one per node, allocated by the
 *   leader in a window of the node communicator; *baseptr (a void **) is its address in the calling process. Free
 *   it with MPI_Win_free(win).
 * MPIX_Hybrid_allgather: node_buf (from MPIX_Hybrid_alloc, at least size(comm) * count elements) receives every
 *   rank's count elements in comm rank order. sendbuf MPI_IN_PLACE: the caller has already stored its block at
 *   element rank * count of node_buf (the paper's use: each process writes its portion in place).
 * MPIX_Hybrid_bcast: the root stores count elements in its node's node_buf, then every process calls; on return
 *   every node's node_buf holds them.
 * MPIX_Hybrid_allreduce: each process's count elements at sendbuf (not MPI_IN_PLACE) are reduced by op into every
 *   node's node_buf. A non-commutative op needs each node's ranks consecutive in comm (else MPI_ERR_OP).
 * Synchronisation (the paper's section 4.5): the allgather starts with a node barrier (every process must have
 *   written), and every call ends with a flag the leader raises for its node's other processes (only the leader
 *   must have finished). As in the paper, a process may write into node_buf for a later call only once every
 *   process of its node is done reading the earlier result (a barrier on the node communicator ensures it).
 * Errors, through comm's error handler: MPI_ERR_ARG (null or freed hybrid object, null buffer), MPI_ERR_COUNT,
 *   MPI_ERR_TYPE, MPI_ERR_ROOT, MPI_ERR_OP, MPI_ERR_BUFFER (MPI_IN_PLACE where not allowed). */
typedef struct MPIX_Hybrid_s *MPIX_Hybrid;
#define MPIX_HYBRID_NULL ((MPIX_Hybrid)0)
STRATA_DECLARE_X(int, Hybrid_create, (MPI_Comm comm, MPIX_Hybrid *hybrid))
STRATA_DECLARE_X(int, Hybrid_free, (MPIX_Hybrid *hybrid))
STRATA_DECLARE_X(int, Hybrid_get_comms, (MPIX_Hybrid hybrid, MPI_Comm *node_comm, MPI_Comm *bridge_comm))
STRATA_DECLARE_X(int, Hybrid_alloc, (MPIX_Hybrid hybrid, MPI_Aint bytes, void *baseptr, MPI_Win *win))
STRATA_DECLARE_X(int, Hybrid_allgather, (const void *sendbuf, int count, MPI_Datatype datatype, void *node_buf,
                                         MPIX_Hybrid hybrid))
STRATA_DECLARE_X(int, Hybrid_bcast, (void *node_buf, int count, MPI_Datatype datatype, int root, MPIX_Hybrid hybrid))
STRATA_DECLARE_X(int, Hybrid_allreduce, (const void *sendbuf, void *node_buf, int count, MPI_Datatype datatype,
                                         MPI_Op op, MPIX_Hybrid hybrid))

/* The hierarchical-communicator proposals (../shared/papers: Goglin et al. 2018, section 3; Bouhrour et al.,
 * section 8). Levels are named as MPI_Comm_split_type's mpi_hw_resource_type values: strata://Rack and
 * strata://Switch (the network levels above the node, when the job has them: mpiexec --network, or a resource
 * manager's PMIX_FABRIC_GROUPS as Rack), hwloc://Machine (the node), hwloc://Package, hwloc://NUMANode,
 * hwloc://L3Cache, hwloc://L2Cache, hwloc://L1Cache, hwloc://Core, hwloc://PU. Values are case-insensitive and
 * may drop the prefix (Rack, Switch, Node, Package, ...).
 *
 * MPIX_Comm_hsplit_with_roots: collective over oldcomm. newcomm is what MPI_Comm_split_type(oldcomm,
 * MPI_COMM_TYPE_HW_UNGUIDED, rank in oldcomm, info, newcomm) gives (info is INOUT in the same way); rootscomm
 * holds the rank-0 process of every newcomm made from oldcomm, in oldcomm's order, and is MPI_COMM_NULL on every
 * other process (and everywhere once newcomm is MPI_COMM_NULL everywhere). */
STRATA_DECLARE_X(int, Comm_hsplit_with_roots, (MPI_Comm oldcomm, MPI_Info info, MPI_Comm *newcomm,
                                               MPI_Comm *rootscomm))

/* MPIX_Comm_get_hlevel_info: for a communicator made by a hardware split (MPI_Comm_split_type with a hardware or
 * shared type, the MPIX calls here, or a dup of one): how many communicators that split made from the same parent,
 * this one's index among them (0 .. num_comms-1, in hardware order: node, then the level's logical index; a
 * network level's job-wide index alone), and
 * its level's name in `type` (room for MPI_MAX_INFO_VAL+1 chars; resultlen excludes the NUL). MPI_ERR_COMM for
 * any other communicator. Local. */
STRATA_DECLARE_X(int, Comm_get_hlevel_info, (MPI_Comm comm, int *num_comms, int *index, char *type, int *resultlen))

/* MPIX_Comm_get_min_hlevel: the deepest level one instance of which holds all the listed processes (ranks of
 * comm): a level name as above when they share a node; when they span nodes, the lowest network level holding all
 * their nodes (strata://Switch, strata://Rack), or "Cluster" when they share none; "Unknown" when the caller
 * is not listed. `type` as in MPIX_Comm_get_hlevel_info. Local (bindings are published at MPI_Init). */
STRATA_DECLARE_X(int, Comm_get_min_hlevel, (MPI_Comm comm, int nranks, const int ranks[], char *type,
                                            int *resultlen))

/* MPIX_Comm_hierarchy_create: collective over comm. The whole hierarchy in one call: levelcomms[i] is the
 * communicator of depth i+1 below comm holding the caller, conduitcomms[i] the conduits (leaders) of the level-i
 * communicators made from the same level-(i-1) communicator (comm for i = 0), or MPI_COMM_NULL where the caller
 * is not a conduit. *nlevels is the caller's depth (at most maxlevels); entries from *nlevels to maxlevels-1 are
 * MPI_COMM_NULL. Ranks keep comm's order at every level. Info keys (the same on every process):
 *   "mpix_hierarchy_levels"  comma-separated level names, split in that order by HW_GUIDED; default: the
 *                            HW_UNGUIDED walk down to single processes;
 *   "mpix_conduit_rank"      the rank of comm that is conduit of every level communicator holding it (default 0);
 *                            other level communicators elect their rank 0.
 * Free each non-null communicator with MPI_Comm_free. Errors: MPI_ERR_INFO_VALUE for an unknown level or a
 * conduit rank outside comm, MPI_ERR_ARG for maxlevels < 0 or NULL arrays. */
STRATA_DECLARE_X(int, Comm_hierarchy_create, (MPI_Comm comm, MPI_Info info, int maxlevels, int *nlevels,
                                              MPI_Comm levelcomms[], MPI_Comm conduitcomms[]))

#undef STRATA_DECLARE_X
#undef STRATA_DECLARE

#ifdef __cplusplus
}
#endif
#endif /* STRATA_MPI_H */
