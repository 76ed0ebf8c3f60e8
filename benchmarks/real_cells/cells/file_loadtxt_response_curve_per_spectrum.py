# ruff: noqa
"""Spectra flux-calibrated by a helper of an earlier cell that reads the instrument's response curve with np.loadtxt on every call: the same text file parsed once per spectrum.

source: spectroscopy lab and astronomy notebooks (a spectrograph's sensitivity or response curve
        kept as a two-column text file next to the data; def flux_calibrate(counts): wl, resp =
        np.loadtxt("response.csv", delimiter=",", skiprows=1, unpack=True); return counts / resp,
        called for every extracted spectrum), then the flux of an emission line per spectrum
family: file-read
kind: slow
verdict: AIP907
rewrite: yes: read the curve once (wl, resp = np.loadtxt(response_path, ...)) outside the helper and divide the whole stack at once (spectra / resp): the same calibrated fluxes
size: 600 spectra of 2,048 pixels, a response file of 2,048 rows
scaled: no
kernel: data
"""
# %% setup
import numpy as np
from cell_data import temp_dir

rng = np.random.default_rng(612)
n_spectra, n_pix = 600, 2_048
wavelength = np.linspace(3_800.0, 9_200.0, n_pix)
response = 0.2 + 0.8 * np.exp(-((wavelength - 6_000.0) / 1_900.0) ** 2)
response_path = temp_dir() / "response.csv"
np.savetxt(response_path, np.column_stack([wavelength, response]), delimiter=",", header="wavelength,response",
           comments="", fmt="%.6f")
line = np.exp(-((wavelength - 6_563.0) / 4.0) ** 2)
spectra = (rng.uniform(50, 400, (n_spectra, 1)) * (1.0 + rng.uniform(0, 3, (n_spectra, 1)) * line)) * response
spectra = rng.poisson(spectra).astype(np.float64)


def flux_calibrate(counts):
    wl, resp = np.loadtxt(response_path, delimiter=",", skiprows=1, unpack=True)
    return counts / resp
# %% cell
calibrated = np.array([flux_calibrate(s) for s in spectra])  # expect: AIP105
in_line = (wavelength > 6_540.0) & (wavelength < 6_586.0)
continuum = np.median(calibrated[:, ~in_line], axis=1, keepdims=True)
line_flux = ((calibrated[:, in_line] - continuum) * np.gradient(wavelength)[in_line]).sum(axis=1)
