// Command shale is Shale's single binary: `shale serve` runs the server.
// Flags and subcommands only; the logic lives in package server.
package main
