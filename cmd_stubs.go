package main

type EventlogCmd struct{}
