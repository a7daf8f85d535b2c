import { App } from "./app";

const root = document.getElementById("app");
if (root === null) throw new Error("no #app element");
new App(root).start();
