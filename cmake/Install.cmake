# `cmake --install`: the layout the Debian package and the container image ship.
#   bin/lqe                          the binary (or LQE_PREBUILT_BINARY, see below)
#   share/lqe/sql/                   the stored endpoints (every .yaml/.sql under sql/)
#   share/lqe/catalogue_seed.tsv     the field catalogue read when Postgres is unreachable
#   <sysconfdir>/lqe/lqe.yaml        the service's config (/etc/lqe with prefix /usr)
#   share/doc/lqe/deploy.md          installing and running it (the units' Documentation=)
#   <unit dir>/lqe.service, lqe-retention.service, lqe-retention.timer
# Without a config file `lqe serve` finds share/lqe beside its bin/ (env_config.h).
include(GNUInstallDirs)

# Packaging an already-built binary (CI's package step reuses the Release build's build/lqe):
# installs that file instead of building the lqe target.
set(LQE_PREBUILT_BINARY "" CACHE FILEPATH "Install this lqe binary instead of building one")
# Debian 12 keeps units in /lib/systemd/system; other prefixes get <prefix>/lib/systemd/system.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(LQE_DEFAULT_UNIT_DIR "/lib/systemd/system")
else()
  set(LQE_DEFAULT_UNIT_DIR "${CMAKE_INSTALL_PREFIX}/lib/systemd/system")
endif()
set(LQE_SYSTEMD_UNIT_DIR "${LQE_DEFAULT_UNIT_DIR}" CACHE PATH "Where systemd units are installed")

if(LQE_PREBUILT_BINARY)
  install(PROGRAMS "${LQE_PREBUILT_BINARY}" DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME lqe)
else()
  install(TARGETS lqe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# Every stored endpoint under sql/ ships: an endpoint added there needs no edit here.
install(DIRECTORY sql/ DESTINATION ${CMAKE_INSTALL_DATADIR}/lqe/sql
        FILES_MATCHING PATTERN "*.yaml" PATTERN "*.sql")
install(FILES schema/catalogue_seed.tsv DESTINATION ${CMAKE_INSTALL_DATADIR}/lqe)
# The units' Documentation=.
install(FILES docs/deploy.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# Files that name installed paths are configured with them.
set(LQE_BINDIR "${CMAKE_INSTALL_FULL_BINDIR}")
set(LQE_DATADIR "${CMAKE_INSTALL_FULL_DATADIR}/lqe")
set(LQE_CONFDIR "${CMAKE_INSTALL_FULL_SYSCONFDIR}/lqe")
set(LQE_DOCDIR "${CMAKE_INSTALL_FULL_DOCDIR}")
foreach(file lqe.yaml systemd/lqe.service systemd/lqe-retention.service
        systemd/lqe-retention.timer)
  configure_file(deploy/package/${file}.in ${CMAKE_BINARY_DIR}/package/${file} @ONLY)
endforeach()
# The full path: with prefix /usr, GNUInstallDirs maps it to /etc (the relative one is usr/etc).
install(FILES ${CMAKE_BINARY_DIR}/package/lqe.yaml DESTINATION ${LQE_CONFDIR})
install(FILES ${CMAKE_BINARY_DIR}/package/systemd/lqe.service
              ${CMAKE_BINARY_DIR}/package/systemd/lqe-retention.service
              ${CMAKE_BINARY_DIR}/package/systemd/lqe-retention.timer
        DESTINATION ${LQE_SYSTEMD_UNIT_DIR})
