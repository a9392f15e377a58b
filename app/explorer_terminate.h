#pragma once
// SIGTERM and SIGHUP (a logout, `kill`, a session manager) close the
// explorer's windows as their close buttons do: the solve is cancelled and
// the settings are saved. By default they ended the process at once (exit
// 143), and the session's settings were lost.
//
// The handler only writes a byte to a socket; the event loop reads it
// (the one safe way to reach Qt from a signal handler).
class QObject;

namespace poet::app {

void closeWindowsOnTerminate(QObject* parent);

}  // namespace poet::app
