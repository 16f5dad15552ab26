// Package config reads the config file: one YAML document, strict (an
// unknown key is an error naming its line), over the defaults of every
// package it configures. It sits just below the command line, which applies
// flags over it only when they are set.
package config
